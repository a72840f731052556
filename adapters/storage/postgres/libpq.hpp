#pragma once
// The adapter's libpq helpers, shared by every file that calls libpq.

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <libpq-fe.h>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "domain/whole_number.hpp"

namespace petstore::adapters::storage::postgres {

using domain::parse_whole;

// Freed: a deleter that hands a handle to the libpq function that frees it.
template <auto release>
struct Freed {
  void operator()(auto* handle) const { release(handle); }
};
using ConnPtr = std::unique_ptr<PGconn, Freed<PQfinish>>;
using ResultPtr = std::unique_ptr<PGresult, Freed<PQclear>>;
using ConninfoPtr = std::unique_ptr<PQconninfoOption, Freed<PQconninfoFree>>;

// TargetHost: one host of a (possibly multi-host) URL, as the libpq keywords that override the
// URL's ("host", and "port" / "hostaddr" where the URL has them), and its name for logs.
struct TargetHost {
  std::vector<std::string> keywords;
  std::vector<std::string> values;
  std::string description;  // "user@host:port/dbname", never the password
};

// ConnectTarget: how to reach the database (postgres_target.hpp builds it). Each host is tried on
// its own, in the URL's order, with its own deadline (docs/decisions/postgres-host-by-host.md).
struct ConnectTarget {
  std::vector<std::string> keywords;
  std::vector<std::string> values;
  std::vector<TargetHost> hosts;                 // empty: libpq's default host, one attempt
  std::string description;                       // the whole URL's, for logs
  std::string password;                          // kept out of every message
  std::chrono::milliseconds timeout{5000};       // a call's
  std::chrono::milliseconds host_timeout{2000};  // one host's connect attempt's

  // host_count: the attempts one round of connecting makes (at least one).
  [[nodiscard]] std::size_t host_count() const {
    return hosts.empty() ? std::size_t{1} : hosts.size();
  }
  [[nodiscard]] const std::string& host_description(std::size_t host) const {
    return hosts.empty() ? description : hosts[host].description;
  }

  // ConnectParams: keywords and values as libpq's *Params connect calls take them, each list
  // ended by a null; valid while the target lives.
  struct ConnectParams {
    std::vector<const char*> keywords;
    std::vector<const char*> values;
  };
  // params: the URL's keywords, narrowed to its `host`-th host.
  [[nodiscard]] ConnectParams params(std::size_t host) const {
    ConnectParams params;
    const auto add = [&params](const std::vector<std::string>& names,
                               const std::vector<std::string>& settings) {
      for (std::size_t i = 0; i < names.size(); ++i) {
        params.keywords.push_back(names[i].c_str());
        params.values.push_back(settings[i].c_str());
      }
    };
    add(keywords, values);
    if (!hosts.empty()) {
      add(hosts[host].keywords, hosts[host].values);
    }
    params.keywords.push_back(nullptr);
    params.values.push_back(nullptr);
    return params;
  }
};

// start_connect: PQconnectStartParams narrowed to the target's `host`-th host, to drive with
// PQconnectPoll; null when libpq is out of memory.
[[nodiscard]] ConnPtr start_connect(const ConnectTarget& target, std::size_t host);

// send_query: PQsendQueryParams of `sql` with `params` in text form (nullopt is NULL); false
// when libpq refused to send it (see PQerrorMessage).
[[nodiscard]] bool send_query(PGconn* conn, const char* sql,
                              const std::vector<std::optional<std::string>>& params);

// redacted: libpq's `text` without its trailing newlines and spaces, each occurrence of
// `password` (when not empty) replaced by "***".
[[nodiscard]] std::string redacted(std::string_view text, const std::string& password);

// one_line: redacted, with the newlines inside the text turned into spaces as well.
[[nodiscard]] std::string one_line(std::string_view text, const std::string& password);

// ArrayLiteral: a PostgreSQL array's text form, built one element at a time. Every element is
// quoted (a backslash before each quote and backslash in it), so any text passes; nullopt is NULL.
class ArrayLiteral {
 public:
  void add(const std::optional<std::string>& item) {
    text_ += text_.size() == 1 ? "" : ",";
    if (!item) {
      text_ += "NULL";
      return;
    }
    text_ += '"';
    for (const char c : *item) {
      if (c == '"' || c == '\\') {
        text_ += '\\';
      }
      text_ += c;
    }
    text_ += '"';
  }
  void add(std::int64_t value) { add(std::optional<std::string>(std::to_string(value))); }
  [[nodiscard]] std::optional<std::string> done() && { return std::move(text_) + "}"; }

 private:
  std::string text_ = "{";
};

}  // namespace petstore::adapters::storage::postgres
