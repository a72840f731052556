#include "adapters/metrics/metrics.hpp"

#include <charconv>
#include <utility>

namespace petstore::adapters::metrics {
namespace {

constexpr std::array<std::string_view, operation_count> operation_names{
    "listPets", "createPet", "getPet", "listOrders", "other"};

// Shortest round-trip digits without an exponent: le="0.0005", as Prometheus clients write it.
void append_number(std::string& out, double value) {
  std::array<char, 400> text{};  // room for any fixed-notation double
  const auto [end, error] =
      std::to_chars(text.data(), text.data() + text.size(), value, std::chars_format::fixed);
  out.append(text.data(), error == std::errc{} ? end : text.data());
}

void append_header(std::string& out, std::string_view name, std::string_view type,
                   std::string_view help) {
  out.append("# HELP ").append(name).append(" ").append(help).append("\n");
  out.append("# TYPE ").append(name).append(" ").append(type).append("\n");
}

// Label values here are fixed literals or build strings; escaped all the same, as the format asks.
std::string escape_label(std::string_view value) {
  std::string escaped;
  for (const char c : value) {
    if (c == '\\' || c == '"') {
      escaped.push_back('\\');
      escaped.push_back(c);
    } else if (c == '\n') {
      escaped.append("\\n");
    } else {
      escaped.push_back(c);
    }
  }
  return escaped;
}

}  // namespace

Operation operation_of(std::string_view method, std::string_view route) {
  if (route == "/v1/pets") {
    if (method == "GET") {
      return Operation::list_pets;
    }
    if (method == "POST") {
      return Operation::create_pet;
    }
  } else if (route == "/v1/pets/{petId}" && method == "GET") {
    return Operation::get_pet;
  } else if (route == "/v1/store/orders" && method == "GET") {
    return Operation::list_orders;
  }
  return Operation::other;
}

std::string_view operation_name(Operation operation) {
  return operation_names.at(static_cast<std::size_t>(operation));
}

void Histogram::observe(std::chrono::nanoseconds duration) {
  const double seconds = std::chrono::duration<double>(duration).count();
  for (std::size_t i = 0; i < bounds.size(); ++i) {
    if (seconds <= bounds.at(i)) {
      buckets_.at(i).fetch_add(1, std::memory_order_relaxed);
      break;
    }
  }
  sum_nanoseconds_.fetch_add(
      static_cast<std::uint64_t>(std::max<std::int64_t>(0, duration.count())),
      std::memory_order_relaxed);
  count_.fetch_add(1, std::memory_order_relaxed);
}

void Histogram::append_exposition(std::string& out, std::string_view name,
                                  std::string_view labels) const {
  const std::string prefix = labels.empty() ? std::string() : std::string(labels) + ",";
  const std::uint64_t count = count_.load(std::memory_order_relaxed);
  std::uint64_t cumulative = 0;
  for (std::size_t i = 0; i < bounds.size(); ++i) {
    // Never above the count read first, so buckets stay monotonic under concurrent updates.
    cumulative = std::min(count, cumulative + buckets_.at(i).load(std::memory_order_relaxed));
    out.append(name).append("_bucket{").append(prefix).append("le=\"");
    append_number(out, bounds.at(i));
    out.append("\"} ").append(std::to_string(cumulative)).append("\n");
  }
  out.append(name).append("_bucket{").append(prefix).append("le=\"+Inf\"} ");
  out.append(std::to_string(count)).append("\n");
  const auto braces = labels.empty() ? std::string() : "{" + std::string(labels) + "}";
  out.append(name).append("_sum").append(braces).append(" ");
  append_number(out, static_cast<double>(sum_nanoseconds_.load(std::memory_order_relaxed)) / 1e9);
  out.append("\n").append(name).append("_count").append(braces).append(" ");
  out.append(std::to_string(count)).append("\n");
}

Metrics::Metrics(BuildInfo build) : build_(std::move(build)) {}

void Metrics::request_finished(Operation operation, unsigned status,
                               std::chrono::nanoseconds duration) {
  const auto index = static_cast<std::size_t>(operation);
  const std::size_t slot = status >= 100 && status < status_slots ? status : 0;
  requests_.at(index).at(slot).fetch_add(1, std::memory_order_relaxed);
  durations_.at(index).observe(duration);
  in_flight_.fetch_sub(1, std::memory_order_relaxed);
}

std::string Metrics::exposition() const {
  std::string out;
  append_header(out, "petstore_http_requests_total", "counter",
                "HTTP requests answered, by operation and status code.");
  for (std::size_t op = 0; op < operation_count; ++op) {
    for (std::size_t status = 0; status < status_slots; ++status) {
      const auto value = requests_.at(op).at(status).load(std::memory_order_relaxed);
      if (value != 0) {
        out.append("petstore_http_requests_total{operation=\"")
            .append(operation_names.at(op))
            .append("\",status=\"")
            .append(std::to_string(status))
            .append("\"} ")
            .append(std::to_string(value))
            .append("\n");
      }
    }
  }
  append_header(out, "petstore_http_request_duration_seconds", "histogram",
                "Time from a request's headers read to its response written, by operation.");
  for (std::size_t op = 0; op < operation_count; ++op) {
    durations_.at(op).append_exposition(
        out, "petstore_http_request_duration_seconds",
        "operation=\"" + std::string(operation_names.at(op)) + "\"");
  }
  append_header(out, "petstore_http_requests_in_flight", "gauge",
                "Requests read and not yet answered.");
  out.append("petstore_http_requests_in_flight ")
      .append(std::to_string(in_flight_.load(std::memory_order_relaxed)))
      .append("\n");
  append_header(out, "petstore_http_connections_open", "gauge", "Open client connections.");
  out.append("petstore_http_connections_open ")
      .append(std::to_string(connections_open_.load(std::memory_order_relaxed)))
      .append("\n");
  if (pets_stored_known_.load(std::memory_order_acquire)) {
    append_header(out, "petstore_pets_stored", "gauge", "Pets in storage.");
    out.append("petstore_pets_stored ")
        .append(std::to_string(pets_stored_.load(std::memory_order_relaxed)))
        .append("\n");
  }
  append_header(out, "petstore_storage_commit_seconds", "histogram",
                "Time of one storage commit (a group of creates, synced).");
  commits_.append_exposition(out, "petstore_storage_commit_seconds", "");
  append_header(out, "petstore_build_info", "gauge", "Always 1; the labels name the build.");
  out.append("petstore_build_info{version=\"")
      .append(escape_label(build_.version))
      .append("\",commit=\"")
      .append(escape_label(build_.commit))
      .append("\"} 1\n");
  return out;
}

}  // namespace petstore::adapters::metrics
