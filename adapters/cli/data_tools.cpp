#include "adapters/cli/data_tools.hpp"

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <iostream>
#include <limits>
#include <string>
#include <sys/stat.h>
#include <unistd.h>

#include "adapters/cli/progress_bar.hpp"
#include "adapters/files/atomic_file_writer.hpp"
#include "adapters/jsonl/jsonl_pet_codec.hpp"
#include "adapters/jsonl/jsonl_pet_reader.hpp"
#include "application/export_pets.hpp"
#include "application/import_pets.hpp"

namespace petstore::adapters::cli {
namespace {

namespace fs = std::filesystem;
namespace files = adapters::files;

constexpr std::size_t max_problems_shown = 10;
// Smaller inputs finish too quickly for a progress bar to help.
constexpr std::uint64_t large_input_bytes = 1 << 20;

// next_id_note: past the largest id (2^63 - 1, which an import may store) there is none, and every
// backend reports 2^63.
std::string next_id_note(std::uint64_t next_id) {
  constexpr auto largest = static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max());
  return next_id <= largest ? "the next id is " + std::to_string(next_id)
                            : "no id is left for creates";
}

bool is_stdio(const std::optional<fs::path>& path) { return !path || *path == "-"; }

// input_size: the size of a regular file's input; 0 when unknown (a pipe, a terminal).
std::uint64_t input_size(const std::optional<fs::path>& in) {
  struct stat info {};
  if ((is_stdio(in) ? ::fstat(STDIN_FILENO, &info) : ::stat(in->c_str(), &info)) != 0 ||
      !S_ISREG(info.st_mode)) {
    return 0;
  }
  return static_cast<std::uint64_t>(info.st_size);
}

// ExportOutput: standard output, or a file through AtomicFileWriter, so that a failed export
// never leaves a truncated file where a complete one is expected.
struct ExportOutput {
  static constexpr std::size_t buffer_limit = 1 << 20;
  std::string name = "standard output";
  std::optional<files::AtomicFileWriter> file;  // absent: standard output
  std::string buffer;
  int error = 0;  // errno of the first failed write

  // write: appends `bytes`, buffered; false once a write has failed (commit then says why).
  bool write(std::string_view bytes) {
    buffer += bytes;
    return buffer.size() < buffer_limit || flush();
  }
  bool flush() {
    if (error == 0) {
      const auto written = file ? file->write(buffer) : files::write_all(STDOUT_FILENO, buffer);
      error = written ? 0 : written.error().error_number;
    }
    buffer.clear();
    return error == 0;
  }
  // commit: flushes; for a file also syncs it and renames it into place. Why not, if it fails.
  std::optional<std::string> commit() {
    if (!flush()) {
      return "cannot write " + name + ": " + std::strerror(error);
    }
    auto committed = file ? file->commit() : files::FileResult<void>();
    return committed ? std::nullopt
                     : std::optional("cannot write " + name + ": " + committed.error().message());
  }
};

std::string plural(std::size_t count, const std::string& one, const std::string& many) {
  return std::to_string(count) + " " + (count == 1 ? one : many);
}

// read_input: the validated pets of the input, or nullopt after reporting its problems.
std::optional<jsonl::PetLines> read_input(std::istream& in, std::uint64_t size,
                                          ProgressBar& progress, std::uint64_t& bytes_read) {
  progress.start("reading", size, ProgressUnit::bytes);
  jsonl::ReadOptions options;
  options.max_problems = max_problems_shown;
  options.progress = [&](std::uint64_t bytes, std::size_t /*lines*/) {
    bytes_read = bytes;
    if (bytes >= large_input_bytes) {
      progress.update(bytes);
    }
  };
  auto lines = jsonl::read_pet_lines(in, options);
  progress.finish();
  if (!lines) {
    report(lines.error().message + "; nothing was imported");
    return std::nullopt;
  }
  if (lines->problem_count == 0) {
    return std::move(*lines);
  }
  for (const auto& problem : lines->problems) {
    report("line " + std::to_string(problem.line) + ": " + problem.message);
  }
  const std::size_t count = lines->problem_count;
  report(plural(count, "bad line", "bad lines") +
         (count > lines->problems.size()
              ? " (the first " + std::to_string(lines->problems.size()) + " shown)"
              : std::string()) +
         "; nothing was imported");
  return std::nullopt;
}

}  // namespace

void report(std::string_view line) { std::cerr << "petstore: " << line << '\n'; }

int export_pets(const ports::PetArchive& archive, const std::optional<fs::path>& out,
                std::string_view store) {
  ExportOutput output;
  if (!is_stdio(out)) {
    output.name = out->string();
    std::error_code ec;
    if (fs::is_directory(*out, ec)) {
      report("cannot write " + output.name + ": it is a directory");
      return 1;
    }
    auto file = files::AtomicFileWriter::create(*out);
    if (!file) {
      report("cannot write " + output.name + ": " + file.error().message());
      return 1;
    }
    output.file.emplace(std::move(*file));
  }
  output.buffer.reserve(ExportOutput::buffer_limit + 4096);
  std::string line;
  auto exported = application::ExportPets(archive)([&](const domain::Pet& pet) {
    line.clear();
    jsonl::append_pet_line(line, pet);
    return output.write(line);
  });
  if (!exported) {
    report(exported.error().message);
    return 1;
  }
  if (const auto failed = output.commit()) {
    report(*failed);
    return 1;
  }
  report("exported " + plural(exported->pets, "pet", "pets") + " from " + std::string(store));
  return 0;
}

int import_pets(ports::PetArchive& archive, const std::optional<fs::path>& in,
                std::string_view store) {
  std::ifstream file;
  if (!is_stdio(in)) {
    file.open(*in, std::ios::binary);
    if (!file || fs::is_directory(*in)) {
      report("cannot read " + in->string() + ": " +
             (fs::is_directory(*in) ? "it is a directory" : std::strerror(errno)));
      return 1;
    }
  }
  std::istream& input = is_stdio(in) ? std::cin : file;
  ProgressBar progress(std::cerr, ::isatty(STDERR_FILENO) == 1);
  std::uint64_t bytes_read = 0;
  const auto lines = read_input(input, input_size(in), progress, bytes_read);
  if (!lines) {
    return 1;
  }
  progress.start("writing", lines->pets.size(), ProgressUnit::pets);
  std::optional<std::size_t> refused_line;
  application::ImportCallbacks callbacks;
  callbacks.progress = [&, large = bytes_read >= large_input_bytes](std::size_t written) {
    if (large) {
      progress.update(written);
    }
  };
  callbacks.refused = [&](std::size_t index) { refused_line = lines->line_of[index]; };
  auto imported = application::ImportPets(archive)(lines->pets, callbacks);
  progress.finish();
  if (!imported) {
    const auto& error = imported.error();
    report(
        (refused_line ? "line " + std::to_string(*refused_line) + ": " : std::string()) +
        error.message + "; nothing was imported" +
        (error.code == domain::ErrorCode::conflict ? " (an import never overwrites a pet)" : ""));
    return 1;
  }
  report("imported " + plural(imported->pets, "pet", "pets") + " into " + std::string(store) +
         "; " + next_id_note(imported->next_id));
  return 0;
}

}  // namespace petstore::adapters::cli
