// Debian's libtorch is a release build, and RecordFunction::inputs() is an inline accessor
// that, without NDEBUG, asserts a flag (inputs_valid_) only a debug libtorch ever sets: in
// a Debug build of this file every observed operator would fail that assertion. The flag
// sits in padding, so the struct's layout is the same either way; defining NDEBUG here
// only drops the assertion.
#ifndef NDEBUG
#define NDEBUG
#endif

#include "compute/compute_meter.h"

#include <ATen/ATen.h>
#include <ATen/record_function.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <sstream>
#include <stdexcept>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>
#include <functional>

namespace uniference {
namespace {

// The meter whose segment is open on this thread, shared by every kind of meter so that a
// second begin() is caught whichever meter it comes from.
thread_local const ComputeMeter* open_meter = nullptr;

void open_segment(const ComputeMeter* meter) {
  if (open_meter != nullptr) {
    throw std::logic_error(
        "ComputeMeter::begin: a compute segment is already open on this thread (segments do "
        "not nest; end() the open one first)");
  }
  open_meter = meter;
}

void close_segment(const ComputeMeter* meter) {
  if (open_meter != meter) {
    throw std::logic_error("ComputeMeter::end: this meter has no open segment (end without begin)");
  }
  open_meter = nullptr;
}

class MeasuredMeter final : public ComputeMeter {
 public:
  MeasuredMeter(double slowdown, int64_t threshold_ns, MonotonicClock clock)
      : slowdown_(slowdown), threshold_ns_(threshold_ns), clock_(std::move(clock)) {}

  void begin() override {
    open_segment(this);
    start_ns_ = clock_();
  }

  int64_t end() override {
    const int64_t ns = clock_() - start_ns_;
    close_segment(this);
    if (ns < threshold_ns_) return 0;
    return std::llround(static_cast<double>(ns) * slowdown_);
  }

 private:
  double slowdown_;
  int64_t threshold_ns_;
  MonotonicClock clock_;
  int64_t start_ns_ = 0;
};

// How an operator's FLOPs and bytes follow from its arguments.
enum class OpKind {
  kFree,         // views, allocations, metadata: no data moved
  kMatmul,       // operands are arguments 0 and 1 (matmul, mm, bmm, mv, dot)
  kMatmulAccum,  // an accumulator first, operands 1 and 2 (addmm, baddbmm, addmv)
  kLinear,       // x [..., K] and weight [N, K]
  kGather,       // reads only the selected rows (embedding, index_select, gather)
  kCopy,         // copy_(dst, src): reads src, writes dst
  kScatter,      // index_put_(dst, indices, values): reads indices and values, writes values
  kElementwise,  // everything else: one FLOP per element of its largest tensor
};

// Operator names without their "aten::" prefix, by kind.
constexpr std::pair<OpKind, const char*> kOperatorKinds[] = {
    {OpKind::kFree,
     "empty empty_like empty_strided new_empty new_empty_strided resize_ resize_as_ set_ view "
     "_unsafe_view view_as reshape _reshape_alias reshape_as flatten unflatten transpose t "
     "permute movedim swapaxes swapdims expand expand_as broadcast_to slice select narrow "
     "unsqueeze squeeze as_strided alias detach detach_ split split_with_sizes tensor_split "
     "chunk unbind unfold diagonal view_as_real view_as_complex real contiguous to type_as lift "
     "lift_fresh item _local_scalar_dense size stride result_type is_nonzero is_same_size "
     "requires_grad_ retain_grad record_stream"},
    {OpKind::kMatmul, "matmul mm bmm mv dot"},
    {OpKind::kMatmulAccum, "addmm baddbmm addmv addbmm"},
    {OpKind::kLinear, "linear"},
    {OpKind::kGather, "embedding index_select gather"},
    {OpKind::kCopy, "copy_"},
    {OpKind::kScatter, "index_put_"},
};

OpKind classify(std::string_view name) {
  // Looked up on every operator: keyed by views, so a lookup allocates nothing.
  struct Table {
    std::vector<std::string> names;
    std::unordered_map<std::string_view, OpKind> kinds;
  };
  static const Table table = [] {
    Table t;
    std::vector<OpKind> kinds;
    for (const auto& [kind, names] : kOperatorKinds) {
      std::istringstream words(names);
      for (std::string word; words >> word;) {
        t.names.push_back("aten::" + word);
        kinds.push_back(kind);
      }
    }
    for (size_t i = 0; i < t.names.size(); ++i) t.kinds.emplace(t.names[i], kinds[i]);
    return t;
  }();
  const auto it = table.kinds.find(name);
  return it == table.kinds.end() ? OpKind::kElementwise : it->second;
}

// Calls f on every defined tensor in an argument or result (tensor, list, optional).
template <typename F>
void for_each_tensor(const c10::IValue& value, F&& f) {
  if (value.isTensor()) {
    const at::Tensor& t = value.toTensor();
    if (t.defined()) f(t);
  } else if (value.isTensorList()) {
    for (const at::Tensor& t : value.toTensorVector()) {
      if (t.defined()) f(t);
    }
  } else if (value.isList()) {
    for (const c10::IValue& element : value.toListRef()) for_each_tensor(element, f);
  }
}

// Bytes per floating-point element of the dtype being charged (the open segment's).
thread_local double charged_float_bytes = 4;

// Sizes only: meta tensors have no data, and none is needed. Floating-point tensors run as
// float32 and are counted at the charged dtype's size.
double tensor_bytes(const at::Tensor& t) {
  const double element = at::isFloatingType(t.scalar_type()) ? charged_float_bytes
                                                              : static_cast<double>(t.element_size());
  return static_cast<double>(t.numel()) * element;
}

double matmul_flops(at::IntArrayRef a, at::IntArrayRef b) {
  if (a.empty() || b.empty()) return 0;
  const int64_t m = a.size() == 1 ? 1 : a[a.size() - 2];
  const int64_t k = a.back();
  const int64_t n = b.size() == 1 ? 1 : b.back();
  // Leading (batch) dims broadcast against each other, aligned from the right.
  const size_t a_batch = a.size() > 2 ? a.size() - 2 : 0;
  const size_t b_batch = b.size() > 2 ? b.size() - 2 : 0;
  double batch = 1;
  for (size_t i = 0; i < std::max(a_batch, b_batch); ++i) {
    const int64_t da = i < a_batch ? a[a_batch - 1 - i] : 1;
    const int64_t db = i < b_batch ? b[b_batch - 1 - i] : 1;
    batch *= static_cast<double>(std::max(da, db));
  }
  return 2.0 * batch * static_cast<double>(m) * static_cast<double>(k) * static_cast<double>(n);
}

const at::Tensor* tensor_arg(c10::ArrayRef<const c10::IValue> args, size_t i) {
  if (i >= args.size() || !args[i].isTensor() || !args[i].toTensor().defined()) return nullptr;
  return &args[i].toTensor();
}

// The cost of the operator being charged, built from its inputs at its start and
// completed from its outputs at its end.
struct OpCost {
  OpKind kind = OpKind::kElementwise;
  double flops = 0;
  double bytes = 0;
  double largest_numel = 0;
};

OpCost input_cost(OpKind kind, c10::ArrayRef<const c10::IValue> args) {
  OpCost cost;
  cost.kind = kind;
  auto count = [&cost](const at::Tensor& t) {
    cost.bytes += tensor_bytes(t);
    cost.largest_numel = std::max(cost.largest_numel, static_cast<double>(t.numel()));
  };
  switch (kind) {
    case OpKind::kMatmul:
    case OpKind::kMatmulAccum: {
      const size_t first = kind == OpKind::kMatmul ? 0 : 1;
      const at::Tensor* a = tensor_arg(args, first);
      const at::Tensor* b = tensor_arg(args, first + 1);
      if (a != nullptr && b != nullptr) cost.flops = matmul_flops(a->sizes(), b->sizes());
      for (const c10::IValue& arg : args) for_each_tensor(arg, count);
      break;
    }
    case OpKind::kLinear: {
      const at::Tensor* x = tensor_arg(args, 0);
      const at::Tensor* w = tensor_arg(args, 1);
      if (x != nullptr && w != nullptr && w->dim() == 2) {
        cost.flops = 2.0 * static_cast<double>(x->numel()) * static_cast<double>(w->size(0));
      }
      for (const c10::IValue& arg : args) for_each_tensor(arg, count);
      break;
    }
    case OpKind::kGather:
      // The table is not read whole: only the indices here, the selected rows at the end.
      for (const c10::IValue& arg : args) {
        for_each_tensor(arg, [&cost](const at::Tensor& t) {
          if (!at::isFloatingType(t.scalar_type())) cost.bytes += tensor_bytes(t);
        });
      }
      break;
    case OpKind::kCopy:
      if (const at::Tensor* src = tensor_arg(args, 1)) cost.bytes += tensor_bytes(*src);
      break;
    case OpKind::kScatter:
      // Only the selected rows of the destination are touched: its whole size is not charged,
      // here or at the end (the operator returns the destination).
      for (size_t i = 1; i < args.size(); ++i) for_each_tensor(args[i], count);
      if (const at::Tensor* values = tensor_arg(args, 2)) cost.bytes += tensor_bytes(*values);
      break;
    case OpKind::kElementwise:
      for (const c10::IValue& arg : args) for_each_tensor(arg, count);
      break;
    case OpKind::kFree:
      break;
  }
  return cost;
}

void add_output_cost(OpCost& cost, const std::vector<c10::IValue>& outputs) {
  if (cost.kind == OpKind::kScatter) return;
  for (const c10::IValue& out : outputs) {
    for_each_tensor(out, [&cost](const at::Tensor& t) {
      const double bytes = tensor_bytes(t);
      cost.bytes += cost.kind == OpKind::kGather ? 2 * bytes : bytes;
      cost.largest_numel = std::max(cost.largest_numel, static_cast<double>(t.numel()));
    });
  }
  if (cost.kind == OpKind::kElementwise) cost.flops = cost.largest_numel;
}

// What one charged operator costs in seconds: from its name, kind, FLOPs, bytes and the wall
// time it took (measured only for meters that ask).
using OperatorPrice = std::function<double(std::string_view name, const OpCost& cost, int64_t wall_ns)>;

bool is_matmul(OpKind kind) {
  return kind == OpKind::kMatmul || kind == OpKind::kMatmulAccum || kind == OpKind::kLinear;
}

// One open segment of an observing meter.
struct Segment {
  const OperatorPrice* price = nullptr;
  bool timed = false;  // read the wall clock around each charged operator
  double seconds = 0;
  int depth = 0;           // operators open on this thread, nested
  int charged_depth = -1;  // depth of the operator being charged; -1: none open
  OpCost charged;
  int64_t started_ns = 0;
};

// Set by begin(), cleared by end(); RecordFunction callbacks are plain function pointers.
thread_local Segment* active_segment = nullptr;

std::unique_ptr<at::ObserverContext> on_op_start(const at::RecordFunction& fn) {
  Segment* segment = active_segment;
  if (segment == nullptr) return nullptr;
  ++segment->depth;
  // Inside an operator already charged: its cost covers everything it calls.
  if (segment->charged_depth >= 0) return nullptr;
  const OpKind kind = classify(fn.name());
  // A view is free, but what it calls is not (reshape of a strided tensor clones it): it
  // does not open a charge, so its callees are charged as outermost operators.
  if (kind == OpKind::kFree) return nullptr;
  segment->charged_depth = segment->depth;
  segment->charged = input_cost(kind, fn.inputs());
  if (segment->timed) segment->started_ns = steady_clock_ns();
  return nullptr;
}

void on_op_end(const at::RecordFunction& fn, at::ObserverContext* /*context*/) {
  Segment* segment = active_segment;
  if (segment == nullptr || segment->depth == 0) return;
  if (segment->depth == segment->charged_depth) {
    const int64_t wall_ns = segment->timed ? steady_clock_ns() - segment->started_ns : 0;
    OpCost& cost = segment->charged;
    add_output_cost(cost, fn.outputs());
    segment->seconds += (*segment->price)(fn.name(), cost, wall_ns);
    segment->charged_depth = -1;
  }
  --segment->depth;
}

// A meter that observes the ATen operators of its segments and charges each its price.
class ObservingMeter final : public ComputeMeter {
 public:
  ObservingMeter(OperatorPrice price, double slowdown, double float_bytes, bool timed)
      : price_(std::move(price)), slowdown_(slowdown), float_bytes_(float_bytes), timed_(timed) {}

  ~ObservingMeter() override {
    if (active_segment == &segment_) stop_observing();
  }

  void begin() override {
    open_segment(this);
    segment_ = Segment{};
    segment_.price = &price_;
    segment_.timed = timed_;
    charged_float_bytes = float_bytes_;
    // Registered per segment rather than once per thread: the bridge swaps libtorch's
    // thread-local state (RecordFunction's included) between devices' fibers, and a
    // callback registered under one fiber's state would vanish under another's. Outside
    // segments, operators then pay nothing for a meter.
    was_enabled_ = at::isRecordFunctionEnabled();
    at::enableRecordFunction(true);
    handle_ = at::addThreadLocalCallback(at::RecordFunctionCallback(&on_op_start, &on_op_end)
                                             .needsInputs(true)
                                             .needsOutputs(true)
                                             .scopes({at::RecordScope::FUNCTION}));
    active_segment = &segment_;
  }

  int64_t end() override {
    close_segment(this);
    stop_observing();
    return std::llround(segment_.seconds * slowdown_ * 1e9);
  }

 private:
  void stop_observing() {
    active_segment = nullptr;
    at::removeCallback(handle_);
    at::enableRecordFunction(was_enabled_);
  }

  OperatorPrice price_;
  double slowdown_;
  double float_bytes_;
  bool timed_;
  Segment segment_;
  at::CallbackHandle handle_ = at::INVALID_CALLBACK_HANDLE;
  bool was_enabled_ = true;
};

void check_positive(double value, const std::string& what, const std::string& profile) {
  if (!(value > 0) || !std::isfinite(value)) {
    throw std::invalid_argument("device profile '" + profile + "': " + what +
                                " must be positive and finite");
  }
}

}  // namespace

ComputeMeter::~ComputeMeter() {
  if (open_meter == this) open_meter = nullptr;
}

int64_t steady_clock_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

std::unique_ptr<ComputeMeter> make_measured_meter(double slowdown, int64_t threshold_ns,
                                                  MonotonicClock clock) {
  check_positive(slowdown, "slowdown", "measured");
  if (threshold_ns < 0) throw std::invalid_argument("measured meter: threshold_ns must be >= 0");
  return std::make_unique<MeasuredMeter>(slowdown, threshold_ns, std::move(clock));
}

std::unique_ptr<ComputeMeter> make_modeled_meter(const DeviceProfile& profile) {
  check_positive(profile.peak_flops, "peak_flops", profile.name);
  check_positive(profile.memory_bandwidth, "memory_bandwidth", profile.name);
  check_positive(profile.efficiency, "efficiency", profile.name);
  check_positive(profile.slowdown, "slowdown", profile.name);
  check_positive(profile.bytes_per_element, "bytes_per_element", profile.name);
  check_positive(profile.matmul_efficiency, "matmul efficiency", profile.name);
  check_positive(profile.elementwise_efficiency, "elementwise efficiency", profile.name);
  if (!(profile.launch_ns >= 0)) {
    throw std::invalid_argument("device profile '" + profile.name + "': launch overhead below 0");
  }
  if (profile.efficiency > 1) {
    throw std::invalid_argument("device profile '" + profile.name + "': efficiency above 1");
  }
  const double peak = profile.peak_flops * profile.efficiency;
  const double matmul_flops_per_second = peak * profile.matmul_efficiency;
  const double other_flops_per_second = peak * profile.elementwise_efficiency;
  const double bytes_per_second = profile.memory_bandwidth;
  const double launch_seconds = profile.launch_ns * 1e-9;
  OperatorPrice roofline = [=](std::string_view, const OpCost& cost, int64_t) {
    const double flops_per_second =
        is_matmul(cost.kind) ? matmul_flops_per_second : other_flops_per_second;
    return launch_seconds +
           std::max(cost.flops / flops_per_second, cost.bytes / bytes_per_second);
  };
  return std::make_unique<ObservingMeter>(std::move(roofline), profile.slowdown,
                                          profile.bytes_per_element, false);
}

std::unique_ptr<ComputeMeter> make_replay_meter(std::shared_ptr<const ReplayTable> table,
                                                double slowdown) {
  check_positive(slowdown, "slowdown", "replay");
  if (!table) throw std::invalid_argument("replay meter: no table");
  OperatorPrice lookup = [table](std::string_view name, const OpCost& cost, int64_t) {
    return table->ns(std::string(name), is_matmul(cost.kind), cost.flops, cost.bytes) * 1e-9;
  };
  return std::make_unique<ObservingMeter>(std::move(lookup), slowdown, 4.0, false);
}

std::unique_ptr<ComputeMeter> make_recording_meter(std::vector<OperatorTiming>* timings) {
  OperatorPrice record = [timings](std::string_view name, const OpCost& cost, int64_t wall_ns) {
    timings->push_back(OperatorTiming{std::string(name), is_matmul(cost.kind), cost.flops,
                                      cost.bytes, double(wall_ns)});
    return double(wall_ns) * 1e-9;
  };
  return std::make_unique<ObservingMeter>(std::move(record), 1.0, 4.0, true);
}

}  // namespace uniference
