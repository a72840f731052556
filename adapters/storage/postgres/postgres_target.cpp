#include "adapters/storage/postgres/postgres_target.hpp"

#include <algorithm>
#include <cstdint>
#include <map>
#include <utility>

#include <boost/algorithm/string/split.hpp>

namespace petstore::adapters::storage::postgres {
namespace {

// split: libpq's comma-separated list (hosts, ports); one empty item for an empty list.
std::vector<std::string> split(const std::string& list) {
  std::vector<std::string> items;
  return boost::split(items, list, [](char c) { return c == ','; });
}

std::string describe(const std::string& user, const std::string& host, const std::string& port,
                     const std::string& dbname) {
  return (user.empty() ? "" : user + "@") + (host.empty() ? "(default host)" : host) +
         (port.empty() ? "" : ":" + port) + "/" + dbname;
}

// hosts_of: each host with its port (one port for all, or one each, as libpq pairs them).
std::vector<TargetHost> hosts_of(const std::string& user, const std::string& host_list,
                                 const std::string& hostaddr_list, const std::string& port_list,
                                 const std::string& dbname) {
  const auto hosts = split(host_list);
  const auto addresses = split(hostaddr_list);
  const auto ports = split(port_list);
  const std::size_t count = std::max(hosts.size(), addresses.size());
  std::vector<TargetHost> result;
  for (std::size_t i = 0; i < count && (!host_list.empty() || !hostaddr_list.empty()); ++i) {
    const auto pick = [i](const std::vector<std::string>& items) {
      return items.size() == 1 ? items.front() : (i < items.size() ? items[i] : std::string());
    };
    TargetHost one;
    for (const auto& [keyword, value] :
         {std::pair{"host", pick(hosts)}, std::pair{"hostaddr", pick(addresses)},
          std::pair{"port", pick(ports)}}) {
      if (!value.empty()) {
        one.keywords.emplace_back(keyword);
        one.values.push_back(value);
      }
    }
    const auto& name = pick(hosts).empty() ? pick(addresses) : pick(hosts);
    one.description = describe(user, name, pick(ports), dbname);
    result.push_back(std::move(one));
  }
  return result;
}

}  // namespace

domain::Result<ParsedUrl> parse_url(const std::string& url, std::string_view flag) {
  char* message = nullptr;
  const ConninfoPtr options(PQconninfoParse(url.c_str(), &message));
  // libpq's message may quote the part it could not parse, which may be the password.
  PQfreemem(message);
  if (!options) {
    return domain::invalid_argument(
        "database_url",
        std::string(flag) + " is not a connection string or URI that libpq can parse");
  }
  std::map<std::string, std::string> value_of;  // each of libpq's keywords ("" when unset)
  for (const auto* option = options.get(); option->keyword != nullptr; ++option) {
    value_of[option->keyword] = option->val != nullptr ? option->val : "";
  }
  ParsedUrl parsed;
  parsed.password = value_of["password"];
  if (const auto& timeout = value_of["connect_timeout"]; !timeout.empty()) {
    // libpq's own reading: an integer, where 1 counts as 2 and 0 or less as none.
    const auto seconds = parse_whole<long>(timeout);
    if (!seconds) {
      return domain::invalid_argument(
          "database_url", std::string(flag) + " has a connect_timeout that is not a whole number");
    }
    parsed.connect_timeout_seconds = *seconds <= 0 ? 0 : std::max(*seconds, 2L);
  }
  const auto& host = value_of["host"].empty() ? value_of["hostaddr"] : value_of["host"];
  parsed.description = describe(value_of["user"], host, value_of["port"], value_of["dbname"]);
  parsed.hosts = hosts_of(value_of["user"], value_of["host"], value_of["hostaddr"],
                          value_of["port"], value_of["dbname"]);
  return parsed;
}

ConnectTarget target_for(const PostgresOptions& options, ParsedUrl parsed, const std::string* url) {
  const std::chrono::milliseconds host_timeout =
      parsed.connect_timeout_seconds > 0 ? std::chrono::seconds(parsed.connect_timeout_seconds)
                                         : default_host_timeout;
  const auto seconds = std::chrono::ceil<std::chrono::seconds>(host_timeout).count();
  // Keywords after "dbname" override the URL's; connect_timeout before it yields to the URL.
  return ConnectTarget{
      {"connect_timeout", "dbname", "client_encoding", "fallback_application_name"},
      {std::to_string(seconds), url != nullptr ? *url : options.database_url, "UTF8", "petstore"},
      std::move(parsed.hosts),
      std::move(parsed.description),
      std::move(parsed.password),
      options.call_timeout,
      host_timeout};
}

ConnectTarget replica_target_for(const PostgresOptions& options, const ParsedUrl& parsed,
                                 const TargetHost& host) {
  ParsedUrl one{host.description, parsed.password, {host}, parsed.connect_timeout_seconds};
  auto target = target_for(options, std::move(one), &options.read_url);
  target.keywords.emplace_back("target_session_attrs");
  target.values.emplace_back("any");
  return target;
}

}  // namespace petstore::adapters::storage::postgres
