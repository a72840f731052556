// Two processes on one data dir (what the data tools do to a live store). LMDB refuses to open
// one environment twice in a process, so the second process is a fork()ed child with its own
// repository; it opens nothing before the fork, and leaves with _exit.

#include <cstdint>
#include <set>
#include <string>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

#include <gtest/gtest.h>

#include "ports/pet_repository_contract.hpp"
#include "support/awaited_repository.hpp"

#include "lmdb_test_support.hpp"

namespace petstore::tests {
namespace {

// Pipe: both ends, closed at destruction.
struct Pipe {
  int fds[2] = {-1, -1};
  Pipe() { EXPECT_EQ(::pipe(fds), 0); }
  Pipe(const Pipe&) = delete;
  Pipe& operator=(const Pipe&) = delete;
  ~Pipe() {
    close_read();
    close_write();
  }
  void close_read() { ::close(std::exchange(fds[0], -1)); }
  void close_write() { ::close(std::exchange(fds[1], -1)); }
};

// run_child: forks a process that waits for a byte on `go`, runs `body` and reports its exit
// code (0 when `body` returned true). Returns the child's pid.
template <class Body>
pid_t run_child(Pipe& go, Body body) {
  const pid_t pid = ::fork();
  if (pid == 0) {
    char byte = 0;
    go.close_write();
    const bool started = ::read(go.fds[0], &byte, 1) == 1;
    bool ok = false;
    try {
      ok = started && body();
    } catch (...) {
      ok = false;
    }
    ::_exit(ok ? 0 : 1);
  }
  go.close_read();
  return pid;
}

int wait_for(pid_t pid) {
  int status = 0;
  if (::waitpid(pid, &status, 0) != pid || !WIFEXITED(status)) {
    return -1;
  }
  return WEXITSTATUS(status);
}

bool write_id(int fd, std::int64_t id) {
  return ::write(fd, &id, sizeof id) == static_cast<ssize_t>(sizeof id);
}

TEST(LmdbTwoProcesses, BothCreateConcurrentlyWithUniqueIds) {
  const TempDir temp;
  constexpr int per_process = 60;
  Pipe go;
  Pipe ids;
  const pid_t child = run_child(go, [&] {
    ids.close_read();
    const auto repository = open_repository(options_for(temp.path()));
    for (int i = 0; i < per_process; ++i) {
      const auto pet = create_pet(*repository, new_pet("child " + std::to_string(i)));
      if (!pet || !write_id(ids.fds[1], pet->id.value)) {
        return false;
      }
    }
    return true;
  });
  ASSERT_GT(child, 0);
  ids.close_write();

  const auto repository = open_repository(options_for(temp.path()));
  ASSERT_EQ(::write(go.fds[1], "g", 1), 1);
  std::vector<domain::Pet> mine;
  mine.reserve(per_process);
  for (int i = 0; i < per_process; ++i) {
    mine.push_back(create_pet(*repository, new_pet("parent " + std::to_string(i))).value());
  }
  std::vector<std::int64_t> theirs;
  for (std::int64_t id = 0; ::read(ids.fds[0], &id, sizeof id) == sizeof id;) {
    theirs.push_back(id);
  }
  ASSERT_EQ(wait_for(child), 0);
  ASSERT_EQ(theirs.size(), std::size_t{per_process});

  std::set<std::int64_t> all;
  for (int i = 0; i < per_process; ++i) {
    EXPECT_EQ(get_now(*repository, mine[i].id).value(), mine[i]);
    EXPECT_EQ(get_now(*repository, domain::PetId{theirs[i]}).value().name.value(),
              "child " + std::to_string(i));
    all.insert(mine[i].id.value);
    all.insert(theirs[i]);
    if (i > 0) {  // each process sees its own ids increase
      EXPECT_LT(mine[i - 1].id, mine[i].id);
      EXPECT_LT(theirs[i - 1], theirs[i]);
    }
  }
  EXPECT_EQ(all.size(), 2 * std::size_t{per_process});
  EXPECT_EQ(list_all(*repository, std::nullopt, 100).size(), all.size());
  EXPECT_EQ(create_pet(*repository, new_pet("Rex")).value().id.value, *all.rbegin() + 1);
}

// The child grows the map far past the parent's: the parent's next read and write adopt the
// larger map (MDB_MAP_RESIZED) instead of failing.
TEST(LmdbTwoProcesses, AMapGrownByAnotherProcessIsAdopted) {
  const TempDir temp;
  auto options = options_for(temp.path());
  options.initial_map_size = std::size_t{64} * 1024;
  options.map_growth_step = std::size_t{64} * 1024;
  constexpr int count = 3000;
  Pipe go;
  const pid_t child = run_child(go, [&] {
    const auto repository = open_repository(options);
    std::atomic<int> succeeded{0};
    std::atomic<int> calls{0};
    for (int i = 0; i < count; ++i) {
      repository->create({new_pet("child"), std::nullopt, test_now},
                         pet_done([&](const domain::Result<domain::Pet>& pet) {
                           succeeded += pet ? 1 : 0;
                           ++calls;
                         }));
    }
    while (calls.load() < count) {
      std::this_thread::yield();
    }
    return succeeded.load() == count;
  });
  ASSERT_GT(child, 0);
  const auto repository = open_repository(options);
  ASSERT_EQ(::write(go.fds[1], "g", 1), 1);
  ASSERT_EQ(wait_for(child), 0);

  EXPECT_EQ(get_now(*repository, domain::PetId{count}).value().name.value(), "child");
  EXPECT_EQ(list_all(*repository, std::nullopt, 100).size(), std::size_t{count});
  EXPECT_EQ(create_pet(*repository, new_pet("parent")).value().id.value, count + 1);
}

}  // namespace
}  // namespace petstore::tests
