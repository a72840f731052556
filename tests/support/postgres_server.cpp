#include "support/postgres_server.hpp"

#include <array>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <fcntl.h>
#include <fstream>
#include <grp.h>
#include <libpq-fe.h>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>
#include <vector>

#include <gtest/gtest.h>

namespace petstore::tests {
namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;

const fs::path postgres_bin = "/usr/lib/postgresql/15/bin";
constexpr uid_t nobody = 65534;
constexpr gid_t nogroup = 65534;

// spawn: runs `args` as nobody when we are root, stdout and stderr appended to `log`, killed
// (SIGKILL) should the starting thread end first. Returns the child's PID.
pid_t spawn(const std::vector<std::string>& args, const fs::path& log) {
  std::vector<char*> argv;
  for (const auto& arg : args) {
    argv.push_back(const_cast<char*>(arg.c_str()));  // NOLINT: execv's signature
  }
  argv.push_back(nullptr);
  const pid_t pid = fork();
  if (pid != 0) {
    return pid;
  }
  // In the child: only async-signal-safe calls until exec.
  const int out = open(log.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (out >= 0) {
    dup2(out, STDOUT_FILENO);
    dup2(out, STDERR_FILENO);
  }
  // Nothing else the test holds (the build lock's descriptor above all) outlives it in a server.
  close_range(STDERR_FILENO + 1, ~0U, 0);
  if (geteuid() == 0 &&
      (setgroups(0, nullptr) != 0 || setgid(nogroup) != 0 || setuid(nobody) != 0)) {
    _exit(126);
  }
  prctl(PR_SET_PDEATHSIG, SIGKILL);  // after the uid change, which would clear it
  execv(argv[0], argv.data());
  _exit(127);
}

// wait_for: the exit status of `pid`, or -1 when it is still running after `timeout`.
int wait_for(pid_t pid, std::chrono::milliseconds timeout) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  for (;;) {
    int status = 0;
    const pid_t done = waitpid(pid, &status, WNOHANG);
    if (done == pid) {
      return status;
    }
    if (done < 0 || std::chrono::steady_clock::now() >= deadline) {
      return -1;
    }
    std::this_thread::sleep_for(20ms);
  }
}

std::string read_file(const fs::path& file) {
  std::ifstream in(file);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace

PostgresServer::PostgresServer() : PostgresServer(WithSettings{}) {}

PostgresServer::PostgresServer(WithSettings with) : settings_(std::move(with.settings)) {
  make_dir();
  run_tool({(postgres_bin / "initdb").string(), "-D", data_dir().string(), "-U", "petstore",
            "--auth=trust", "-E", "UTF8", "--no-locale", "--no-sync"},
           "initdb");
  start();
}

PostgresServer::PostgresServer(StandbyOf standby) {
  make_dir();
  // initdb's pg_hba.conf trusts local replication connections, and petstore is the superuser.
  // A fast checkpoint: the default spread one paces its writes over most of checkpoint_timeout,
  // which held each standby's start back about 90 s.
  run_tool(
      {(postgres_bin / "pg_basebackup").string(), "-R", "-D", data_dir().string(), "-h",
       standby.primary.socket_dir().string(), "-U", "petstore", "--no-sync", "--checkpoint=fast"},
      "pg_basebackup");
  start();
}

void PostgresServer::make_dir() {
  std::string pattern = (fs::temp_directory_path() / "petstore-pg-XXXXXX").string();
  if (mkdtemp(pattern.data()) == nullptr) {
    throw std::runtime_error("mkdtemp failed");
  }
  dir_ = pattern;
  if (geteuid() == 0 && chown(dir_.c_str(), nobody, nogroup) != 0) {
    throw std::runtime_error("cannot hand " + dir_.string() + " to nobody");
  }
}

void PostgresServer::run_tool(const std::vector<std::string>& args, const std::string& what) {
  const pid_t tool = spawn(args, log_file());
  const int status = wait_for(tool, 120s);
  if (status == -1 || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    if (status == -1) {
      kill(tool, SIGKILL);
      waitpid(tool, nullptr, 0);
    }
    throw std::runtime_error(what + " failed:\n" + log());
  }
}

PostgresServer::~PostgresServer() {
  stop();
  std::error_code ignored;
  fs::remove_all(dir_, ignored);
}

void PostgresServer::start() {
  if (pid_ > 0) {
    return;
  }
  // fsync off: the tests stop the server cleanly (which writes everything), never pull its power.
  std::vector<std::string> args{(postgres_bin / "postgres").string(),
                                "-D",
                                data_dir().string(),
                                "-k",
                                dir_.string(),
                                "-c",
                                "listen_addresses=",
                                "-c",
                                "fsync=off",
                                "-c",
                                "max_connections=200"};
  for (const auto& setting : settings_) {
    args.insert(args.end(), {"-c", setting});
  }
  pid_ = spawn(args, log_file());
  wait_until_accepting();
}

void PostgresServer::stop() {
  if (pid_ <= 0) {
    return;
  }
  thaw();
  kill(pid_, SIGINT);  // fast shutdown
  if (wait_for(pid_, 60s) == -1) {
    kill(pid_, SIGKILL);
    waitpid(pid_, nullptr, 0);
  }
  pid_ = -1;
}

void PostgresServer::lose() {
  if (pid_ <= 0) {
    return;
  }
  thaw();
  kill(pid_, SIGQUIT);  // immediate shutdown: no checkpoint, nothing handed to a standby
  if (wait_for(pid_, 60s) == -1) {
    kill(pid_, SIGKILL);
    waitpid(pid_, nullptr, 0);
  }
  pid_ = -1;
}

void PostgresServer::crash() {
  if (pid_ <= 0) {
    return;
  }
  signal_all(SIGKILL);
  waitpid(pid_, nullptr, 0);
  frozen_ = false;
  pid_ = -1;
}

int PostgresServer::signal_children(std::string_view title, int signal) const {
  int signalled = 0;
  for (const pid_t child : children()) {
    const std::string command_line =
        read_file(fs::path("/proc") / std::to_string(child) / "cmdline");
    if (command_line.find(title) != std::string::npos) {
      kill(child, signal);
      ++signalled;
    }
  }
  return signalled;
}

void PostgresServer::freeze() {
  signal_all(SIGSTOP);
  frozen_ = true;
}

void PostgresServer::thaw() {
  if (frozen_) {
    signal_all(SIGCONT);
    frozen_ = false;
  }
}

void PostgresServer::signal_all(int signal) const {
  std::vector<pid_t> pids = children();
  pids.insert(pids.begin(), pid_);
  for (const pid_t pid : pids) {
    kill(pid, signal);
  }
}

std::vector<pid_t> PostgresServer::children() const {
  std::vector<pid_t> pids;
  std::error_code error;
  for (const auto& entry : fs::directory_iterator("/proc", error)) {
    // /proc/PID/stat: "PID (COMM) STATE PPID ...", where COMM may hold spaces and parentheses.
    const std::string stat = read_file(entry.path() / "stat");
    const auto comm_end = stat.rfind(')');
    if (comm_end == std::string::npos) {
      continue;
    }
    std::istringstream rest(stat.substr(comm_end + 1));
    std::string state;
    pid_t parent = 0;
    if (rest >> state >> parent && parent == pid_) {
      pids.push_back(static_cast<pid_t>(std::stol(entry.path().filename().string())));
    }
  }
  return pids;
}

void PostgresServer::wait_until_accepting() {
  const std::string conninfo = url("postgres");
  const auto deadline = std::chrono::steady_clock::now() + 60s;
  while (PQping(conninfo.c_str()) != PQPING_OK) {
    if (wait_for(pid_, 0ms) != -1) {
      pid_ = -1;
      throw std::runtime_error("postgres exited at start:\n" + log());
    }
    if (std::chrono::steady_clock::now() >= deadline) {
      stop();
      throw std::runtime_error("postgres did not accept connections within 60 s:\n" + log());
    }
    std::this_thread::sleep_for(50ms);
  }
}

std::string PostgresServer::url(const std::string& database) const {
  return "postgresql:///" + database + "?host=" + dir_.string() + "&user=petstore";
}

std::string PostgresServer::create_database() {
  std::string name = "test_" + std::to_string(++next_database_);
  PGconn* conn = PQconnectdb(url("postgres").c_str());
  PGresult* result =
      PQexec(conn, ("CREATE DATABASE " + name + " TEMPLATE template0 ENCODING 'UTF8'").c_str());
  const bool created = PQresultStatus(result) == PGRES_COMMAND_OK;
  const std::string message = PQerrorMessage(conn);
  PQclear(result);
  PQfinish(conn);
  if (!created) {
    throw std::runtime_error("CREATE DATABASE failed: " + message);
  }
  return name;
}

std::string PostgresServer::log() const { return read_file(log_file()); }

namespace {

// The server every test of the executable shares: made on first use, stopped by gtest's
// environment teardown (which runs even after failed tests).
std::unique_ptr<PostgresServer>& shared_slot() {
  static std::unique_ptr<PostgresServer> server;
  return server;
}

class SharedServerEnvironment final : public testing::Environment {
 public:
  void TearDown() override { shared_slot().reset(); }
};

}  // namespace

PostgresServer& shared_postgres_server() {
  auto& server = shared_slot();
  if (!server) {
    server = std::make_unique<PostgresServer>();
    testing::AddGlobalTestEnvironment(new SharedServerEnvironment);  // gtest owns it
  }
  return *server;
}

}  // namespace petstore::tests
