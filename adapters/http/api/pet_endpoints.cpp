#include "adapters/http/api/pet_endpoints.hpp"

#include <string>
#include <utility>

#include "adapters/http/api/ascii.hpp"
#include "adapters/http/api/error_response.hpp"
#include "adapters/http/api/media_type.hpp"
#include "adapters/http/api/parameters.hpp"
#include "adapters/http/api/pet_json.hpp"
#include "adapters/pet_json/pet_encoder.hpp"

namespace petstore::adapters::http {
namespace {

HttpResponse json_response(unsigned status, std::string body) {
  HttpResponse response;
  response.status = status;
  response.body = std::move(body);
  return response;
}

std::string next_page_link(const ports::PetQuery& query, domain::PetId last) {
  std::string link;
  link.reserve(96);
  link += "</v1/pets?limit=";
  append_decimal(link, query.limit.value());
  link += "&after=";
  append_decimal(link, last.value);
  if (query.status) {
    link += "&status=";
    link += domain::to_string(*query.status);
  }
  link += R"(>; rel="next")";
  return link;
}

ports::TraceContext trace_of(const HttpRequest& request) {
  return request.trace != nullptr ? *request.trace : ports::TraceContext{};
}

void answer(Respond& respond, HttpResponse response) {
  response.v1_fields = true;
  respond(std::move(response));
}

}  // namespace

void list_pets(const application::ListPets& list, boost::urls::params_view params,
               const HttpRequest& request, Respond respond) {
  auto query = parse_list_query(params);
  if (!query) {
    answer(respond, error_response(query.error(), "invalid_parameter"));
    return;
  }
  list(*query, {[query = *query,
                 respond = std::move(respond)](domain::Result<ports::PetPage> page) mutable {
                  if (!page) {
                    answer(respond, error_response(page.error(), "invalid_parameter"));
                    return;
                  }
                  std::string body;
                  pet_json::append_pets(body, page->pets);
                  HttpResponse response = json_response(200, std::move(body));
                  if (page->has_more && !page->pets.empty()) {
                    response.set_header("Link", next_page_link(query, page->pets.back().id));
                  }
                  answer(respond, std::move(response));
                },
                request.storage_deadline, trace_of(request)});
}

std::optional<HttpResponse> refuse_create_head(const HttpRequest& request) {
  if (request.idempotency_key_repeated) {
    return error_response(400, "invalid_parameter", "Idempotency-Key must be sent once");
  }
  if (request.idempotency_key) {
    if (const auto key = check_idempotency_key(*request.idempotency_key); !key) {
      return error_response(key.error(), "invalid_parameter");
    }
  }
  if (request.content_type_repeated) {
    return error_response(400, "invalid_parameter", "Content-Type must be sent once");
  }
  const JsonMediaType media_type = request.content_type
                                       ? classify_json_media_type(*request.content_type)
                                       : JsonMediaType::not_json;
  if (media_type == JsonMediaType::other_charset) {
    return error_response(415, "unsupported_media_type",
                          "the body must be application/json in UTF-8, the only charset "
                          "accepted (charset=utf-8, or none)");
  }
  if (media_type != JsonMediaType::json) {
    return error_response(415, "unsupported_media_type", "the body must be application/json");
  }
  if (request.content_encoding && !equals_ignoring_case(*request.content_encoding, "identity")) {
    return error_response(415, "unsupported_media_type",
                          "the body must not be encoded: Content-Encoding is not supported");
  }
  return std::nullopt;
}

void create_pet(const application::CreatePet& create, const ports::Principal& principal,
                const HttpRequest& request, Respond respond) {
  if (auto refused = refuse_create_head(request)) {
    answer(respond, std::move(*refused));
    return;
  }
  auto pet = decode_new_pet(request.body);
  if (!pet) {
    answer(respond, error_response(400, to_code(pet.error().problem), pet.error().message));
    return;
  }
  std::optional<std::string> idempotency_key;
  if (request.idempotency_key) {
    idempotency_key.emplace(*request.idempotency_key);
  }
  create(
      principal, std::move(*pet), std::move(idempotency_key),
      [respond = std::move(respond)](domain::Result<domain::Pet> stored) mutable {
        if (stored) {
          std::string body;
          pet_json::append_pet(body, *stored);
          HttpResponse response = json_response(201, std::move(body));
          std::string location = "/v1/pets/";
          append_decimal(location, stored->id.value);
          response.set_header("Location", std::move(location));
          answer(respond, std::move(response));
        } else if (stored.error().code == domain::ErrorCode::invalid_argument) {
          answer(respond, error_response(400, "invalid_parameter",
                                         "Idempotency-Key is longer than the store can keep"));
        } else {
          answer(respond, error_response(stored.error(), "validation_failed"));
        }
      },
      request.storage_deadline, trace_of(request));
}

void get_pet(const application::GetPet& get, std::string_view pet_id, const HttpRequest& request,
             Respond respond) {
  const auto id = parse_pet_id(pet_id);
  if (!id) {
    answer(respond, error_response(id.error(), "invalid_parameter"));
    return;
  }
  get(*id, {[id = *id, respond = std::move(respond)](domain::Result<domain::Pet> pet) mutable {
              HttpResponse response;
              if (pet) {
                std::string body;
                pet_json::append_pet(body, *pet);
                response = json_response(200, std::move(body));
              } else if (pet.error().code == domain::ErrorCode::not_found) {
                std::string message = "no pet has id ";
                append_decimal(message, id.value);
                response = error_response(404, "not_found", message);
              } else {
                response = error_response(pet.error(), "invalid_parameter");
              }
              if (response.status == 200 || response.status == 404) {
                // RFC 9745 Deprecation: getPet has been deprecated since interface 1.0.0 was
                // published, 2026-01-01T00:00:00Z (docs/decisions/get-pet-deprecation.md).
                // RFC 8594 Sunset: the removal date of the spec.
                response.set_header("Deprecation", "@1767225600");
                response.set_header("Sunset", "Thu, 05 Dec 2030 00:00:00 GMT");
                response.set_header("Link", R"(</v1/pets>; rel="successor-version")");
              }
              answer(respond, std::move(response));
            },
            request.storage_deadline, trace_of(request)});
}

HttpResponse list_orders(const application::ListOrders& list) {
  const auto orders = list();
  if (!orders) {
    return error_response(orders.error(), "invalid_parameter");
  }
  return json_response(200, "[]");  // unreachable in v1: orders are not specified
}

}  // namespace petstore::adapters::http
