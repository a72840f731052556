#include "adapters/storage/postgres/libpq.hpp"

#include <algorithm>

namespace petstore::adapters::storage::postgres {

ConnPtr start_connect(const ConnectTarget& target, std::size_t host) {
  const auto params = target.params(host);
  return ConnPtr(PQconnectStartParams(params.keywords.data(), params.values.data(), 1));
}

bool send_query(PGconn* conn, const char* sql,
                const std::vector<std::optional<std::string>>& params) {
  std::vector<const char*> values;
  values.reserve(params.size());
  for (const auto& param : params) {
    values.push_back(param ? param->c_str() : nullptr);
  }
  return PQsendQueryParams(conn, sql, static_cast<int>(values.size()), nullptr, values.data(),
                           nullptr, nullptr, 0) != 0;
}

std::string redacted(std::string_view text, const std::string& password) {
  std::string message(text);
  // Masked before anything else changes the text, so that no password is split by an edit.
  if (!password.empty()) {
    for (auto at = message.find(password); at != std::string::npos;
         at = message.find(password, at)) {
      message.replace(at, password.size(), "***");
    }
  }
  while (!message.empty() && (message.back() == '\n' || message.back() == ' ')) {
    message.pop_back();
  }
  return message;
}

std::string one_line(std::string_view text, const std::string& password) {
  auto message = redacted(text, password);
  std::replace(message.begin(), message.end(), '\n', ' ');
  return message;
}

}  // namespace petstore::adapters::storage::postgres
