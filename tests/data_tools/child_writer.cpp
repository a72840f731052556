#include "child_writer.hpp"

#include <atomic>
#include <new>
#include <poll.h>
#include <stdexcept>
#include <string>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "adapters/storage/lmdb/lmdb_test_support.hpp"
#include "ports/pet_repository_contract.hpp"

namespace petstore::tests {
namespace {

static_assert(std::atomic<int>::is_always_lock_free);

[[noreturn]] void run_child(const std::filesystem::path& data_dir, int acks,
                            const std::atomic<int>* stop_flag) {
  bool ok = false;
  try {
    const auto repository = open_repository(options_for(data_dir));
    ok = true;
    for (int i = 0; stop_flag->load() == 0; ++i) {
      const auto pet = create_pet(
          *repository, new_pet("live " + std::to_string(i), i, domain::all_pet_statuses[i % 3]));
      const std::int64_t id = pet ? pet->id.value : 0;
      if (!pet || ::write(acks, &id, sizeof id) != static_cast<ssize_t>(sizeof id)) {
        ok = false;
        break;
      }
    }
  } catch (...) {
    ok = false;
  }
  ::_exit(ok ? 0 : 1);
}

}  // namespace

ChildWriter::ChildWriter(const std::filesystem::path& data_dir) {
  void* shared = ::mmap(nullptr, sizeof(std::atomic<int>), PROT_READ | PROT_WRITE,
                        MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  if (shared == MAP_FAILED) {
    throw std::runtime_error("mmap failed");
  }
  stop_flag_ = new (shared) std::atomic<int>(0);  // lock-free, so it works across processes
  int fds[2];
  if (::pipe(fds) != 0) {
    throw std::runtime_error("pipe failed");
  }
  pid_ = ::fork();
  if (pid_ == 0) {
    ::close(fds[0]);
    run_child(data_dir, fds[1], stop_flag_);
  }
  ::close(fds[1]);
  acks_ = fds[0];
  if (pid_ < 0) {
    throw std::runtime_error("fork failed");
  }
}

ChildWriter::~ChildWriter() {
  if (pid_ > 0) {
    (void)stop();
  }
  if (acks_ >= 0) {
    ::close(acks_);
  }
  ::munmap(stop_flag_, sizeof(std::atomic<int>));
}

bool ChildWriter::read_one() {
  std::int64_t id = 0;
  if (::read(acks_, &id, sizeof id) != static_cast<ssize_t>(sizeof id)) {
    return false;
  }
  ids_.push_back(id);
  return true;
}

std::vector<std::int64_t> ChildWriter::wait_for(std::size_t count) {
  while (ids_.size() < count && read_one()) {
  }
  return ids_;
}

std::vector<std::int64_t> ChildWriter::drain() {
  pollfd ready{acks_, POLLIN, 0};
  while (::poll(&ready, 1, 0) == 1 && (ready.revents & POLLIN) != 0 && read_one()) {
  }
  return ids_;
}

std::vector<std::int64_t> ChildWriter::stop() {
  if (pid_ > 0) {
    stop_flag_->store(1);
    while (read_one()) {
    }
    int status = 0;
    if (::waitpid(pid_, &status, 0) == pid_ && WIFEXITED(status)) {
      exit_code_ = WEXITSTATUS(status);
    }
    pid_ = -1;
  }
  return ids_;
}

}  // namespace petstore::tests
