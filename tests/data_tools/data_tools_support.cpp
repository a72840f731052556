#include "data_tools_support.hpp"

#include <algorithm>
#include <array>
#include <iterator>
#include <limits>

#include <gtest/gtest.h>

#include "adapters/jsonl/jsonl_pet_codec.hpp"
#include "adapters/storage/lmdb/lmdb_pet_archive.hpp"
#include "ports/pet_repository_contract.hpp"
#include "support/complete_read.hpp"

namespace petstore::tests {

domain::Pet pet(std::int64_t id, std::string_view name, std::int64_t category_id,
                domain::PetStatus status) {
  return domain::Pet{domain::PetId{id}, domain::PetName::parse(name).value(),
                     domain::CategoryId{category_id}, status};
}

domain::Pet sample_pet(std::size_t index, std::size_t count, bool with_max_id) {
  static const std::array<std::string, 8> names{
      "Rex",
      "Ünïcödé 😀",
      "名前",
      "quote \" and backslash \\",
      " padded ",
      "\u00a0no-break space",
      "slash / and tab-free",
      "\u200bzero width",
  };
  constexpr std::int64_t min = std::numeric_limits<std::int64_t>::min();
  constexpr std::int64_t max = std::numeric_limits<std::int64_t>::max();
  const auto n = static_cast<std::int64_t>(index);
  const std::int64_t id = with_max_id && index + 1 == count ? max : 1 + n * 3;
  const std::int64_t category = index % 5 == 0 ? min : index % 5 == 1 ? max : n - 5000;
  const auto status = domain::all_pet_statuses[index % domain::all_pet_statuses.size()];
  return pet(id, names[index % names.size()] + " " + std::to_string(index), category, status);
}

std::vector<domain::Pet> sample_pets(std::size_t count, bool with_max_id) {
  std::vector<domain::Pet> pets;
  pets.reserve(count);
  for (std::size_t i = 0; i < count; ++i) {
    pets.push_back(sample_pet(i, count, with_max_id));
  }
  return pets;
}

std::string jsonl(const std::vector<domain::Pet>& pets) {
  std::string text;
  for (const auto& one : pets) {
    adapters::jsonl::append_pet_line(text, one);
  }
  return text;
}

domain::Result<application::ExportReport> export_from(
    const adapters::storage::lmdb::LmdbOptions& options, const ports::PetArchive::PetSink& sink) {
  const auto archive = adapters::storage::lmdb::make_lmdb_pet_archive(options);
  return application::ExportPets(*archive)(sink);
}

domain::Result<application::ImportReport> import_into(
    const adapters::storage::lmdb::LmdbOptions& options, std::span<const domain::Pet> pets,
    const application::ImportCallbacks& callbacks) {
  const auto archive = adapters::storage::lmdb::make_lmdb_pet_archive(options);
  return application::ImportPets(*archive)(pets, callbacks);
}

std::vector<domain::Pet> exported(const adapters::storage::lmdb::LmdbOptions& options) {
  return collect_complete_read([&](const auto& sink) { return export_from(options, sink); });
}

std::vector<domain::Pet> expect_consistent_store(const ports::PetRepository& repository) {
  auto all = list_all(repository, std::nullopt, 100);
  EXPECT_TRUE(std::adjacent_find(all.begin(), all.end(),
                                 [](const auto& a, const auto& b) { return a.id >= b.id; }) ==
              all.end())
      << "ids must be unique and ascending";
  for (const auto status : domain::all_pet_statuses) {
    std::vector<domain::Pet> expected;
    std::copy_if(all.begin(), all.end(), std::back_inserter(expected),
                 [&](const domain::Pet& one) { return one.status == status; });
    EXPECT_EQ(list_all(repository, status, 100), expected)
        << "the index of status " << domain::to_string(status) << " disagrees with the pets";
  }
  return all;
}

}  // namespace petstore::tests
