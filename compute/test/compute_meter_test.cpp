#include "compute/compute_meter.h"

#include <ATen/ATen.h>
#include <ATen/record_function.h>
#include <c10/core/InferenceMode.h>
#include <gtest/gtest.h>

#include <functional>

#include <chrono>
#include <cmath>
#include <stdexcept>

#include "compute/llama.h"

namespace uniference {
namespace {

// One FLOP per nanosecond at full efficiency, and memory so fast it never binds.
DeviceProfile compute_bound(double efficiency = 1.0) {
  return DeviceProfile{"test-compute", 1e9, 1e18, efficiency};
}

// One byte per nanosecond, and arithmetic so fast it never binds.
DeviceProfile memory_bound() { return DeviceProfile{"test-memory", 1e18, 1e9}; }

TEST(DeviceProfile, DatasheetNumbers) {
  EXPECT_EQ(device_profile("a100", "bf16").peak_flops, 312e12);
  EXPECT_EQ(device_profile("a100").peak_flops, 19.5e12);  // fp32, without tensor cores
  EXPECT_EQ(device_profile("a100").memory_bandwidth, 2.0e12);
  EXPECT_EQ(device_profile("h100", "fp16").peak_flops, 989e12);
  EXPECT_EQ(device_profile("h100").memory_bandwidth, 3.35e12);
  EXPECT_EQ(device_profile("h200").memory_bandwidth, 4.8e12);
  EXPECT_EQ(device_profile("jetson-agx-orin").memory_bandwidth, 204.8e9);
  EXPECT_EQ(device_profile("jetson-orin-nano").memory_bandwidth, 68e9);
  EXPECT_EQ(device_profile("h100", "bf16").bytes_per_element, 2);
  for (const std::string& name : device_profile_names()) {
    const DeviceProfile p = device_profile(name);
    EXPECT_EQ(p.name, name);
    EXPECT_GT(p.peak_flops, 0);
    EXPECT_GT(p.memory_bandwidth, 0);
    EXPECT_EQ(p.efficiency, 1.0);
    EXPECT_EQ(p.slowdown, 1.0);
  }
  try {
    device_profile("tpu");
    FAIL() << "no exception";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("a100"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("tpu"), std::string::npos) << e.what();
  }
}

TEST(ModeledMeter, MatmulIsChargedTwoMnkOverPeak) {
  const int64_t n = 48, k = 64, m = 40;
  const at::Tensor a = at::randn({n, k}), b = at::randn({k, m});
  const double flops = 2.0 * n * k * m;
  auto meter = make_modeled_meter(compute_bound(0.5));
  meter->begin();
  at::mm(a, b);
  EXPECT_EQ(meter->end(), static_cast<int64_t>(flops / 0.5));  // 1 FLOP/ns at half speed

  // On a datasheet profile the roofline picks the larger of the two times.
  const DeviceProfile a100 = device_profile("a100");
  const double bytes = 4.0 * (n * k + k * m + n * m);
  const double seconds = std::max(flops / a100.peak_flops, bytes / a100.memory_bandwidth);
  auto a100_meter = make_modeled_meter(a100);
  a100_meter->begin();
  at::matmul(a, b);
  EXPECT_EQ(a100_meter->end(), std::llround(seconds * 1e9));
}

TEST(ModeledMeter, ObservesOperatorsUnderInferenceModeAndNoGrad) {
  const at::Tensor a = at::randn({32, 16}), b = at::randn({16, 8});
  auto meter = make_modeled_meter(compute_bound());
  {
    c10::InferenceMode inference;
    meter->begin();
    at::mm(a, b);
    EXPECT_EQ(meter->end(), 2 * 32 * 16 * 8);
  }
  {
    at::NoGradGuard no_grad;
    meter->begin();
    at::mm(a, b);
    EXPECT_EQ(meter->end(), 2 * 32 * 16 * 8);
  }
}

TEST(ModeledMeter, NestedOperatorsAreCountedOnce) {
  // linear -> matmul -> (reshape) -> mm: one linear of [2*3, 16] x [16, 8].
  const at::Tensor x = at::randn({2, 3, 16}), w = at::randn({8, 16});
  auto meter = make_modeled_meter(compute_bound());
  meter->begin();
  at::linear(x, w);
  EXPECT_EQ(meter->end(), 2 * 6 * 16 * 8);
  // Batched: bmm of 4 x [5, 6] x [6, 7].
  meter->begin();
  at::matmul(at::randn({4, 5, 6}), at::randn({4, 6, 7}));
  const int64_t randn_and_bmm = meter->end();
  meter->begin();
  const at::Tensor p = at::randn({4, 5, 6}), q = at::randn({4, 6, 7});
  const int64_t randn_only = meter->end();
  meter->begin();
  at::matmul(p, q);
  EXPECT_EQ(meter->end(), 2 * 4 * 5 * 6 * 7);
  EXPECT_EQ(randn_and_bmm, randn_only + 2 * 4 * 5 * 6 * 7);
}

TEST(ModeledMeter, ElementwiseOperatorsPayForTheirBytes) {
  const at::Tensor a = at::randn({1000}), b = at::randn({1000});
  auto meter = make_modeled_meter(memory_bound());
  meter->begin();
  at::add(a, b);
  EXPECT_EQ(meter->end(), 3 * 4000);  // two float inputs read, one written, at 1 B/ns
  meter->begin();
  at::Tensor c = at::randn({1000});
  const int64_t randn = meter->end();
  EXPECT_EQ(randn, 4000);  // writes its output
  // Gathers read only the rows they select: 3 rows of 64 floats, 3 int64 ids.
  const at::Tensor table = at::randn({10000, 64});
  const at::Tensor ids =
      at::tensor(std::vector<int64_t>{1, 5, 9}, at::TensorOptions().dtype(at::kLong));
  meter->begin();
  at::embedding(table, ids);
  EXPECT_EQ(meter->end(), 3 * 8 + 2 * 3 * 64 * 4);
}

TEST(ModeledMeter, ScattersPayForTheRowsTheyWriteNotTheWholeDestination) {
  at::Tensor cache = at::zeros({16, 128, 64});
  const at::Tensor values = at::randn({3, 64});
  const auto longs = at::TensorOptions().dtype(at::kLong);
  const at::Tensor slots = at::tensor(std::vector<int64_t>{0, 4, 9}, longs);
  const at::Tensor positions = at::tensor(std::vector<int64_t>{7, 0, 127}, longs);
  auto meter = make_modeled_meter(memory_bound());
  meter->begin();
  cache.index_put_({slots, positions}, values);
  // Two index tensors of 3 int64 read; 3 rows of 64 floats read and written.
  EXPECT_EQ(meter->end(), 2 * 3 * 8 + 2 * 3 * 64 * 4);
  EXPECT_EQ(cache[9][127][5].item<float>(), values[2][5].item<float>());
}

TEST(ModeledMeter, ViewsAreFreeButTheCopiesTheyCauseAreNot) {
  const at::Tensor x = at::randn({8, 16});
  auto meter = make_modeled_meter(memory_bound());
  meter->begin();
  x.view({16, 8}).t().narrow(0, 0, 4).unsqueeze(0).permute({0, 2, 1});
  EXPECT_EQ(meter->end(), 0);
  meter->begin();
  x.t().reshape({128});  // not viewable: reshape clones, reading and writing 512 bytes
  EXPECT_EQ(meter->end(), 2 * 8 * 16 * 4);
}

TEST(ModeledMeter, MetaTensorsAreChargedLikeRealOnes) {
  const auto meta = at::TensorOptions().device(at::kMeta);
  const at::Tensor a = at::empty({4096, 4096}, meta), b = at::empty({4096, 1024}, meta);
  auto meter = make_modeled_meter(compute_bound());
  meter->begin();
  const at::Tensor c = at::softmax(at::mm(a, b), -1);
  const int64_t ns = meter->end();
  EXPECT_TRUE(c.is_meta());
  EXPECT_EQ(ns, 2LL * 4096 * 4096 * 1024 + 4096 * 1024);  // mm, then softmax's elements
}

TEST(ModeledMeter, OnlyTheOpenSegmentIsCharged) {
  auto meter = make_modeled_meter(compute_bound());
  const at::Tensor a = at::randn({64, 64});
  at::mm(a, a);  // before begin()
  meter->begin();
  const int64_t empty = meter->end();
  at::mm(a, a);  // after end()
  EXPECT_EQ(empty, 0);
  meter->begin();
  EXPECT_EQ(meter->end(), 0);
}

TEST(ModeledMeter, RestoresRecordFunctionState) {
  const bool had_callbacks = at::hasThreadLocalCallbacks();
  auto meter = make_modeled_meter(compute_bound());
  at::enableRecordFunction(false);  // a caller that switched RecordFunction off
  meter->begin();
  at::mm(at::ones({2, 3}), at::ones({3, 4}));
  EXPECT_EQ(meter->end(), 2 * 2 * 3 * 4 + 2 * 3 + 3 * 4);  // and two ones()
  EXPECT_FALSE(at::isRecordFunctionEnabled());
  at::enableRecordFunction(true);
  EXPECT_EQ(at::hasThreadLocalCallbacks(), had_callbacks);
}

TEST(ModeledMeter, SlowdownScalesTheCharge) {
  DeviceProfile slow = compute_bound();
  slow.slowdown = 3;
  auto meter = make_modeled_meter(slow);
  const at::Tensor a = at::randn({10, 20}), b = at::randn({20, 30});
  meter->begin();
  at::mm(a, b);
  EXPECT_EQ(meter->end(), 3 * 2 * 10 * 20 * 30);
  slow.efficiency = 0;
  EXPECT_THROW(make_modeled_meter(slow), std::invalid_argument);
}

ModelConfig tiny() { return model_preset("tiny"); }

// 2 FLOPs per weight per token for every projection, from the shapes alone.
double projection_flops(const ModelConfig& c, int64_t tokens) {
  const int64_t hd = c.head_dim();
  const int64_t per_layer =
      c.dim * (c.n_heads * hd) * 2 + c.dim * (c.n_kv_heads * hd) * 2 + c.dim * c.ffn_dim * 3;
  return 2.0 * tokens * (c.n_layers * per_layer + c.dim * c.vocab);
}

TEST(ModeledMeter, TinyForwardIsDeterministicAndMostlyProjections) {
  LlamaModel model(tiny(), 1);
  const at::Tensor prompt = at::arange(16, at::TensorOptions().dtype(at::kLong));
  auto meter = make_modeled_meter(compute_bound());
  int64_t charged[2];
  for (int64_t& ns : charged) {
    meter->begin();
    model.forward(prompt, 0);
    ns = meter->end();
  }
  EXPECT_EQ(charged[0], charged[1]);
  // Attention scores and elementwise work add a few percent to the projections.
  const double projections = projection_flops(tiny(), 16);
  EXPECT_GE(charged[0], projections);
  EXPECT_LE(charged[0], projections * 1.1);

  meter->begin();
  model.forward(at::tensor(std::vector<int64_t>{7}, at::TensorOptions().dtype(at::kLong)), 16);
  const int64_t decode = meter->end();
  EXPECT_GE(decode, projection_flops(tiny(), 1));
  EXPECT_LE(decode, projection_flops(tiny(), 1) * 1.1);

  // Memory-bound on an A100, a decode step costs about reading the weights once.
  auto a100 = make_modeled_meter(device_profile("a100"));
  a100->begin();
  model.forward(at::tensor(std::vector<int64_t>{7}, at::TensorOptions().dtype(at::kLong)), 16);
  const double weight_bytes = 4 * projection_flops(tiny(), 1) / 2;
  EXPECT_GE(a100->end(), weight_bytes / 2.0e12 * 1e9);
}

TEST(ComputeMeter, SegmentsDoNotNest) {
  auto modeled = make_modeled_meter(compute_bound());
  auto measured = make_measured_meter(1.0);
  modeled->begin();
  EXPECT_THROW(modeled->begin(), std::logic_error);
  EXPECT_THROW(measured->begin(), std::logic_error);
  EXPECT_THROW(measured->end(), std::logic_error);
  modeled->end();
  EXPECT_THROW(modeled->end(), std::logic_error);
  measured->begin();  // usable after the errors
  measured->end();
}

TEST(ComputeMeter, AMeterDestroyedMidSegmentClosesIt) {
  {
    auto meter = make_modeled_meter(compute_bound());
    meter->begin();
  }
  auto next = make_modeled_meter(compute_bound());
  next->begin();
  at::mm(at::ones({2, 2}), at::ones({2, 2}));
  EXPECT_GT(next->end(), 0);
}

void spin_until(std::chrono::steady_clock::time_point deadline) {
  volatile double sink = 0;
  while (std::chrono::steady_clock::now() < deadline) sink = sink + 1;
}

TEST(MeasuredMeter, ChargesWallTimeTimesSlowdown) {
  const double slowdown = 2.5;
  auto meter = make_measured_meter(slowdown);
  const auto outer_start = std::chrono::steady_clock::now();
  meter->begin();
  spin_until(outer_start + std::chrono::milliseconds(20));
  const int64_t charged = meter->end();
  const auto outer = std::chrono::steady_clock::now() - outer_start;
  const double outer_ns = std::chrono::duration<double, std::nano>(outer).count();
  // The segment lies inside [outer_start, now] and lasts until the 20 ms deadline.
  EXPECT_GE(charged, slowdown * 19e6);
  EXPECT_LE(charged, slowdown * outer_ns);
}

TEST(MeasuredMeter, ShortSegmentsAreFree) {
  auto meter = make_measured_meter(1.0, /*threshold_ns=*/1000000000);
  meter->begin();
  EXPECT_EQ(meter->end(), 0);
  EXPECT_THROW(make_measured_meter(0.0), std::invalid_argument);
  EXPECT_THROW(make_measured_meter(1.0, -1), std::invalid_argument);
}

}  // namespace
}  // namespace uniference

namespace uniference {
namespace {

TEST(MeasuredMeter, SlowdownTwoChargesExactlyTwiceSlowdownOne) {
  // An injected clock that advances 1234567 ns per reading: nothing is timed.
  int64_t now = 0;
  auto clock = [&now] { return now += 1234567; };
  auto once = make_measured_meter(1.0, 1000, clock);
  auto twice = make_measured_meter(2.0, 1000, clock);
  once->begin();
  const int64_t one = once->end();
  twice->begin();
  const int64_t two = twice->end();
  EXPECT_EQ(one, 1234567);
  EXPECT_EQ(two, 2 * one);
  auto strict = make_measured_meter(1.0, 2000000, clock);
  strict->begin();
  EXPECT_EQ(strict->end(), 0) << "a segment under the threshold is free";
}

TEST(ModeledMeter, ChargesLaunchOverheadClassEfficiencyAndTheDtypesBytes) {
  const int64_t n = 32, k = 16, m = 8;
  const at::Tensor a = at::randn({n, k}), b = at::randn({k, m});
  DeviceProfile slow_matmul{"t", 1e9, 1e18};
  slow_matmul.launch_ns = 500;
  slow_matmul.matmul_efficiency = 0.25;
  auto meter = make_modeled_meter(slow_matmul);
  meter->begin();
  at::mm(a, b);
  EXPECT_EQ(meter->end(), std::llround(500 + 2.0 * n * k * m / 0.25));

  // a + b over 1000 floats reads two and writes one: 3000 elements, at 2 bytes in bf16.
  DeviceProfile half{"h", 1e18, 1e9};
  half.bytes_per_element = 2;
  const at::Tensor x = at::randn({1000}), y = at::randn({1000});
  auto bf16 = make_modeled_meter(half);
  bf16->begin();
  at::add(x, y);
  EXPECT_EQ(bf16->end(), 3000 * 2);
}

TEST(DeviceProfile, FilesAreCheckedKeyByKey) {
  const std::string good = R"({"name": "mine", "peak_flops": {"fp32": 1e12, "bf16": 4e12},
      "memory_bandwidth": 1e11, "launch_overhead_ns": 3000, "efficiency": {"matmul": 0.6}})";
  const DeviceProfileSpec spec = parse_device_profile(good, "mine.json");
  const DeviceProfile bf16 = resolve_device_profile(spec, "bf16");
  EXPECT_EQ(bf16.peak_flops, 4e12);
  EXPECT_EQ(bf16.launch_ns, 3000);
  EXPECT_EQ(bf16.matmul_efficiency, 0.6);
  EXPECT_EQ(bf16.elementwise_efficiency, 1.0);
  EXPECT_EQ(parse_device_profile(device_profile_text(spec), "again").peak_flops, spec.peak_flops);
  const auto error = [](const std::string& text) {
    try {
      parse_device_profile(text, "bad.json");
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_NE(error(R"({"name": "x", "peak_flops": {"fp8": 1}, "memory_bandwidth": 1})")
                .find("bad.json: /peak_flops/fp8"), std::string::npos);
  EXPECT_NE(error(R"({"name": "x", "peak_flops": {"fp32": 1}})").find("/memory_bandwidth"),
            std::string::npos);
  // Found by the side-file fuzzer (tests/fuzz): a number beyond a double is not JSON here,
  // not a stray nlohmann exception.
  EXPECT_NE(error(R"({"name": "x", "peak_flops": {"fp32": 2e9999}})").find("bad.json: not JSON"),
            std::string::npos);
  EXPECT_NE(error(R"({"name": "x", "peak_flops": {"fp32": 1}, "memory_bandwidth": 1,
      "efficiency": {"matmul": 1.5}})").find("/efficiency/matmul"), std::string::npos);
  EXPECT_THROW(resolve_device_profile(spec, "fp16"), std::invalid_argument);
}

TEST(ReplayMeter, ChargesTheTablesTimesInterpolatedBySize) {
  // 2 x 16 x 16 x 16 = 8192 FLOPs and 2 x 32^3 = 65536 FLOPs measured; 8 x 16 x 32 between.
  const std::shared_ptr<const ReplayTable> table = std::make_shared<const ReplayTable>(
      ReplayTable::parse_csv("op,class,flops,bytes,ns\n"
                             "aten::mm,matmul,8192,3072,1000\n"
                             "aten::mm,matmul,65536,12288,8000\n"
                             "aten::add,other,0,1200,50\n",
                             "table.csv"));
  const auto charge = [&](const std::function<void()>& op) {
    auto meter = make_replay_meter(table);
    meter->begin();
    op();
    return meter->end();
  };
  const at::Tensor a16 = at::ones({16, 16}), a32 = at::ones({32, 32}), a16x32 = at::ones({16, 32});
  const at::Tensor a2 = at::ones({2, 2}), x100 = at::ones({100});
  EXPECT_EQ(charge([&] { at::mm(a16, a16); }), 1000);
  EXPECT_EQ(charge([&] { at::mm(a32, a32); }), 8000);
  const double flops = 2.0 * 16 * 32 * 32;  // [16, 32] x [32, 32]
  EXPECT_EQ(charge([&] { at::mm(a16x32, a32); }),
            std::llround(1000 + 7000 * (flops - 8192) / (65536 - 8192)));
  EXPECT_EQ(charge([&] { at::mm(a2, a2); }), 1000);  // below: smallest
  // A matrix product the table does not name is charged from its class's rows.
  EXPECT_EQ(charge([&] { at::matmul(a16, a16); }), 1000);
  // 100 floats added: 1200 bytes, the add row's time.
  EXPECT_EQ(charge([&] { at::add(x100, x100); }), 50);
  EXPECT_THROW(ReplayTable::parse_csv("op,class,flops,bytes,ns\naten::mm,matmul,x,1,2\n", "t.csv"),
               std::invalid_argument);
}

}  // namespace
}  // namespace uniference
