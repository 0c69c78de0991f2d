// Atomic writes: the target is whole or absent, and no temporary outlives a call.
#include "apps/atomic_file.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>

#include "apps/test/test_dir.h"

namespace uniference {
namespace {

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

TEST(AtomicFile, WritesTheContentsAndNoTemporary) {
  TestDir dir;
  write_file_atomically(dir / "results.json", "{\"a\": 1}\n");
  EXPECT_EQ(read_file(dir / "results.json"), "{\"a\": 1}\n");
  EXPECT_EQ(dir.entries(), std::set<std::string>{"results.json"});
}

TEST(AtomicFile, ReplacesAnExistingFile) {
  TestDir dir;
  write_file_atomically(dir / "out.txt", "a much longer first version\n");
  write_file_atomically(dir / "out.txt", "short\n");
  EXPECT_EQ(read_file(dir / "out.txt"), "short\n");
  EXPECT_EQ(dir.entries(), std::set<std::string>{"out.txt"});
}

TEST(AtomicFile, WritesEmptyAndBinaryContents) {
  TestDir dir;
  write_file_atomically(dir / "empty", "");
  EXPECT_EQ(read_file(dir / "empty"), "");
  const std::string binary("a\0b\xff", 4);
  write_file_atomically(dir / "binary", binary);
  EXPECT_EQ(read_file(dir / "binary"), binary);
}

TEST(AtomicFile, FailsWhenTheFolderIsAFile) {
  TestDir dir;
  write_file_atomically(dir / "blocker", "not a folder\n");
  const std::string target = dir / "blocker/results.json";
  try {
    write_file_atomically(target, "data");
    FAIL() << "no error";
  } catch (const OutputError& error) {
    EXPECT_NE(std::string(error.what()).find(target), std::string::npos) << error.what();
  }
  EXPECT_FALSE(std::filesystem::exists(target));
  EXPECT_EQ(dir.entries(), std::set<std::string>{"blocker"});
}

TEST(AtomicFile, FailedRenameLeavesNoTemporary) {
  TestDir dir;
  // A non-empty folder where the file should go: creating the temporary works, the
  // rename over it cannot.
  std::filesystem::create_directories(dir.path() / "results.json" / "inside");
  EXPECT_THROW(write_file_atomically(dir / "results.json", "data"), OutputError);
  EXPECT_TRUE(std::filesystem::is_directory(dir.path() / "results.json" / "inside"));
  EXPECT_EQ(dir.entries(), std::set<std::string>{"results.json"});
}

TEST(AtomicFile, FailsWhenTheFolderIsMissing) {
  TestDir dir;
  EXPECT_THROW(write_file_atomically(dir / "missing/results.json", "data"), OutputError);
  EXPECT_TRUE(dir.entries().empty());
}

}  // namespace
}  // namespace uniference
