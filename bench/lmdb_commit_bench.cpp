// petstore_lmdb_commit_bench: LMDB alone, one synced commit per record, the baseline bench/run
// sets beside R3 at one connection ("no slower than one commit per create"). For SECONDS it
// begins a write transaction, puts one 100-byte record under the next 8-byte key and commits,
// with LMDB's default durability (the data synced, then the meta page written synchronously),
// in a fresh environment in DIR, on the same disk the service syncs to.
//
// Usage: petstore_lmdb_commit_bench DIR SECONDS
// Prints: commits_per_second=N median_commit_us=N

#include <algorithm>
#include <array>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include <lmdb.h>

namespace {

using Clock = std::chrono::steady_clock;

void check(int rc, const char* call) {
  if (rc != MDB_SUCCESS) {
    std::fprintf(stderr, "petstore_lmdb_commit_bench: %s: %s\n", call, mdb_strerror(rc));
    std::exit(1);
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: petstore_lmdb_commit_bench DIR SECONDS\n");
    return 2;
  }
  const std::string dir = argv[1];
  const auto duration = std::chrono::seconds(std::strtol(argv[2], nullptr, 10));
  MDB_env* env = nullptr;
  check(mdb_env_create(&env), "mdb_env_create");
  check(mdb_env_set_mapsize(env, std::size_t{1} << 30U), "mdb_env_set_mapsize");
  check(mdb_env_open(env, dir.c_str(), MDB_NOTLS, 0600), "mdb_env_open");
  MDB_dbi dbi = 0;
  {
    MDB_txn* txn = nullptr;
    check(mdb_txn_begin(env, nullptr, 0, &txn), "mdb_txn_begin");
    check(mdb_dbi_open(txn, nullptr, 0, &dbi), "mdb_dbi_open");
    check(mdb_txn_commit(txn), "mdb_txn_commit");
  }
  std::array<char, 100> value{};
  value.fill('x');
  std::vector<double> latencies_us;
  const auto start = Clock::now();
  for (std::uint64_t key = 1; Clock::now() - start < duration; ++key) {
    const auto began = Clock::now();
    std::array<unsigned char, 8> key_bytes{};
    for (std::size_t i = 0; i < key_bytes.size(); ++i) {  // big-endian: appends in key order
      key_bytes[i] = static_cast<unsigned char>(key >> (8U * (7 - i)));
    }
    MDB_val key_val{key_bytes.size(), key_bytes.data()};
    MDB_val value_val{value.size(), value.data()};
    MDB_txn* txn = nullptr;
    check(mdb_txn_begin(env, nullptr, 0, &txn), "mdb_txn_begin");
    check(mdb_put(txn, dbi, &key_val, &value_val, 0), "mdb_put");
    check(mdb_txn_commit(txn), "mdb_txn_commit");
    latencies_us.push_back(std::chrono::duration<double, std::micro>(Clock::now() - began).count());
  }
  const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
  const auto middle = latencies_us.begin() + static_cast<std::ptrdiff_t>(latencies_us.size() / 2);
  std::nth_element(latencies_us.begin(), middle, latencies_us.end());
  std::printf("commits_per_second=%.0f median_commit_us=%.0f\n",
              static_cast<double>(latencies_us.size()) / seconds, *middle);
  mdb_env_close(env);
  return 0;
}
