#pragma once
// The /v1 operations, reached once a request is authenticated and routed. Each answers through
// `respond`, exactly once: at once for a bad request, else when storage has answered (on any
// thread), with the /v1 headers added. Storage calls carry `request`'s deadline and trace.

#include <optional>
#include <string_view>

#include <boost/url/params_view.hpp>

#include "adapters/http/api/http_message.hpp"
#include "application/use_cases.hpp"

namespace petstore::adapters::http {

// GET /v1/pets: 200 with a page of pets and, when more match, a Link to the next page.
void list_pets(const application::ListPets& list, boost::urls::params_view params,
               const HttpRequest& request, Respond respond);

// POST /v1/pets, its head alone: the refusal its fields earn before the body is read
// (Idempotency-Key, Content-Type once and JSON, no Content-Encoding), or nullopt.
[[nodiscard]] std::optional<HttpResponse> refuse_create_head(const HttpRequest& request);

// POST /v1/pets: 201 with the pet and its Location once stored.
void create_pet(const application::CreatePet& create, const ports::Principal& principal,
                const HttpRequest& request, Respond respond);

// GET /v1/pets/{petId} (deprecated): 200 or 404, both with the deprecation headers.
void get_pet(const application::GetPet& get, std::string_view pet_id, const HttpRequest& request,
             Respond respond);

// GET /v1/store/orders: 501 until the order record is specified.
[[nodiscard]] HttpResponse list_orders(const application::ListOrders& list);

}  // namespace petstore::adapters::http
