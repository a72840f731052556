// The idempotency rule of createPet, stated once as properties of settle_create: whatever the
// pets, a create that stored its pet answers it; a repeat answers the earlier pet exactly when it
// sent the same pet, and is a conflict otherwise; a repository error passes through unchanged.

#include <string>

#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include "application/idempotency.hpp"

namespace petstore::tests {
namespace {

using domain::ErrorCode;

// A small alphabet, so that equal pets come up often enough to matter.
rc::Gen<domain::NewPet> arbitrary_new_pet() {
  return rc::gen::apply(
      [](int name, int category, int status) {
        return domain::NewPet{domain::PetName::parse("pet " + std::to_string(name)).value(),
                              domain::CategoryId{category},
                              domain::all_pet_statuses[static_cast<std::size_t>(status)]};
      },
      rc::gen::inRange(0, 3), rc::gen::inRange(0, 3), rc::gen::inRange(0, 3));
}

RC_GTEST_PROP(SettleCreate, ACreatedPetIsAnsweredWhateverWasSent, ()) {
  const auto sent = *arbitrary_new_pet();
  const auto stored =
      domain::with_id(domain::PetId{*rc::gen::inRange(1, 1000)}, *arbitrary_new_pet());
  const auto answer = application::settle_create(sent, ports::CreateOutcome{stored, true});
  RC_ASSERT(answer.has_value());
  RC_ASSERT(*answer == stored);
}

RC_GTEST_PROP(SettleCreate, ARepeatIsTheEarlierPetExactlyWhenTheSamePetWasSent, ()) {
  const auto sent = *arbitrary_new_pet();
  const auto earlier = *arbitrary_new_pet();
  const auto stored = domain::with_id(domain::PetId{7}, earlier);
  const auto answer = application::settle_create(sent, ports::CreateOutcome{stored, false});
  if (earlier == sent) {
    RC_ASSERT(answer.has_value());
    RC_ASSERT(*answer == stored);
  } else {
    RC_ASSERT(!answer.has_value());
    RC_ASSERT(answer.error().code == ErrorCode::conflict);
  }
}

RC_GTEST_PROP(SettleCreate, ARepositoryErrorPassesThrough, ()) {
  const auto code =
      *rc::gen::element(ErrorCode::unavailable, ErrorCode::internal, ErrorCode::invalid_argument);
  const auto error = domain::make_error(code, "", "storage said no");
  const auto answer =
      application::settle_create(*arbitrary_new_pet(), domain::Result<ports::CreateOutcome>(error));
  RC_ASSERT(!answer.has_value());
  RC_ASSERT(answer.error() == error);
}

TEST(IsSameRequest, ComparesEveryMemberButTheId) {
  const auto sent = domain::NewPet{domain::PetName::parse("Rex").value(), domain::CategoryId{1},
                                   domain::PetStatus::available};
  EXPECT_TRUE(application::is_same_request(domain::with_id(domain::PetId{9}, sent), sent));
  auto other = sent;
  other.status = domain::PetStatus::sold;
  EXPECT_FALSE(application::is_same_request(domain::with_id(domain::PetId{9}, other), sent));
}

}  // namespace
}  // namespace petstore::tests
