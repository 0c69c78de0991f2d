#include "apps/run_capture.h"

#include "apps/atomic_file.h"

namespace uniference {

namespace fs = std::filesystem;

RunCapture::RunCapture(const OutputSpec& outputs, const std::string& out_dir,
                       const std::string& prefix)
    : out_dir_(out_dir.empty() ? std::string(".") : out_dir),
      partial_(out_dir_ / ".pcap-partial"),
      flow_monitor_(outputs.flow_monitor) {
  if (!outputs.pcap && !outputs.flow_monitor) return;
  std::error_code error;
  fs::create_directories(out_dir_, error);
  if (error) {
    throw OutputError("cannot create output directory " + out_dir_.string() + ": " +
                      error.message());
  }
  // Beside the outputs, so moving a finished file into place is a rename on one file system;
  // a folder left by a killed run is cleared here.
  if (outputs.pcap) {
    fs::remove_all(partial_, error);
    if (!error) fs::create_directories(partial_, error);
    if (error) {
      throw OutputError("cannot create capture folder " + partial_.string() + ": " +
                        error.message());
    }
  }
  capture_.emplace(outputs.pcap, outputs.flow_monitor, outputs.pcap ? partial_.string() : "",
                   prefix);
}

RunCapture::~RunCapture() {
  // What a failed run captured goes with the folder (the files close with capture_).
  std::error_code ignored;
  if (capture_) fs::remove_all(partial_, ignored);
}

void RunCapture::commit() {
  if (!capture_) return;
  if (flow_monitor_) {
    write_file_atomically((out_dir_ / "flowmon.xml").string(), capture_->flow_monitor_xml());
  }
  capture_->close_pcap();
  for (const std::string& file : capture_->pcap_files()) {
    const fs::path target = out_dir_ / fs::path(file).filename();
    std::error_code error;
    fs::rename(file, target, error);
    if (error) {
      throw OutputError("cannot move " + file + " to " + target.string() + ": " + error.message());
    }
  }
}

}  // namespace uniference
