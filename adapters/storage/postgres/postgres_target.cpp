#include "adapters/storage/postgres/postgres_target.hpp"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <utility>

namespace petstore::adapters::storage::postgres {
namespace {

// split: libpq's comma-separated list (hosts, ports); one empty item for an empty list.
std::vector<std::string> split(const std::string& list) {
  std::vector<std::string> items;
  std::size_t from = 0;
  for (auto comma = list.find(','); comma != std::string::npos; comma = list.find(',', from)) {
    items.push_back(list.substr(from, comma - from));
    from = comma + 1;
  }
  items.push_back(list.substr(from));
  return items;
}

std::string describe(const std::string& user, const std::string& host, const std::string& port,
                     const std::string& dbname) {
  return (user.empty() ? "" : user + "@") + (host.empty() ? "(default host)" : host) +
         (port.empty() ? "" : ":" + port) + "/" + dbname;
}

// hosts_of: each host with its port (one port for all, or one each, as libpq pairs them).
std::vector<OneHost> hosts_of(const std::string& user, const std::string& host_list,
                              const std::string& hostaddr_list, const std::string& port_list,
                              const std::string& dbname) {
  const auto hosts = split(host_list);
  const auto addresses = split(hostaddr_list);
  const auto ports = split(port_list);
  const std::size_t count = std::max(hosts.size(), addresses.size());
  std::vector<OneHost> result;
  for (std::size_t i = 0; i < count && (!host_list.empty() || !hostaddr_list.empty()); ++i) {
    const auto pick = [i](const std::vector<std::string>& items) {
      return items.size() == 1 ? items.front() : (i < items.size() ? items[i] : std::string());
    };
    OneHost one;
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
  std::string user;
  std::string host;
  std::string hostaddr;
  std::string port;
  std::string dbname;
  ParsedUrl parsed;
  for (const auto* option = options.get(); option->keyword != nullptr; ++option) {
    const std::string keyword = option->keyword;
    const std::string value = option->val != nullptr ? option->val : "";
    if (keyword == "user") {
      user = value;
    } else if (keyword == "host") {
      host = value;
    } else if (keyword == "hostaddr") {
      hostaddr = value;
    } else if (keyword == "port") {
      port = value;
    } else if (keyword == "dbname") {
      dbname = value;
    } else if (keyword == "password") {
      parsed.password = value;
    }
  }
  parsed.description = describe(user, host.empty() ? hostaddr : host, port, dbname);
  parsed.hosts = hosts_of(user, host, hostaddr, port, dbname);
  return parsed;
}

ConnectTarget target_for(const PostgresOptions& options, std::string password,
                         const std::string* url, const OneHost* host) {
  const auto seconds = std::max<std::int64_t>(
      2, std::chrono::ceil<std::chrono::seconds>(options.call_timeout).count());
  // Keywords after "dbname" override the URL's; connect_timeout before it yields to the URL.
  ConnectTarget target{
      {"connect_timeout", "dbname", "client_encoding", "fallback_application_name"},
      {std::to_string(seconds), url != nullptr ? *url : options.database_url, "UTF8", "petstore"},
      std::move(password),
      options.call_timeout};
  if (host != nullptr) {
    target.keywords.insert(target.keywords.end(), host->keywords.begin(), host->keywords.end());
    target.values.insert(target.values.end(), host->values.begin(), host->values.end());
  }
  return target;
}

}  // namespace petstore::adapters::storage::postgres
