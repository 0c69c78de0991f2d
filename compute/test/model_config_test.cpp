#include "compute/model_config.h"

#include <gtest/gtest.h>

#include <stdexcept>

namespace uniference {
namespace {

void expect_shape(const ModelConfig& c, int64_t dim, int64_t layers, int64_t heads,
                  int64_t kv_heads, int64_t ffn, int64_t vocab) {
  EXPECT_EQ(c.dim, dim);
  EXPECT_EQ(c.n_layers, layers);
  EXPECT_EQ(c.n_heads, heads);
  EXPECT_EQ(c.n_kv_heads, kv_heads);
  EXPECT_EQ(c.ffn_dim, ffn);
  EXPECT_EQ(c.vocab, vocab);
  EXPECT_EQ(c.rope_theta, 500000);
  EXPECT_EQ(c.norm_eps, 1e-5);
  EXPECT_EQ(c.max_seq, 2048);
  EXPECT_EQ(check_model_config(c), "");
}

TEST(ModelConfig, PresetsHaveTheirShapes) {
  expect_shape(model_preset("tiny"), 256, 6, 8, 4, 768, 32000);
  expect_shape(model_preset("1b"), 2048, 16, 32, 8, 8192, 128256);
  expect_shape(model_preset("8b"), 4096, 32, 32, 8, 14336, 128256);
  EXPECT_EQ(model_preset("8b").name, "8b");
  EXPECT_EQ(model_preset("8b").head_dim(), 128);
}

TEST(ModelConfig, UnknownPresetNamesTheKnownOnes) {
  try {
    model_preset("405b");
    FAIL() << "no exception";
  } catch (const std::invalid_argument& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find("405b"), std::string::npos) << message;
    for (const char* known : {"tiny", "1b", "8b", "70b"}) {
      EXPECT_NE(message.find(known), std::string::npos) << message;
    }
  }
}

TEST(ModelConfig, TensorParallelDegreesOfTiny) {
  const ModelConfig tiny = model_preset("tiny");
  for (int tp : {1, 2, 4}) EXPECT_EQ(check_tensor_parallel(tiny, tp), "") << "tp=" << tp;
  const std::string three = check_tensor_parallel(tiny, 3);
  EXPECT_NE(three.find("tp=3 does not divide n_heads=8"), std::string::npos) << three;
  EXPECT_NE(three.find("n_kv_heads=4"), std::string::npos) << three;
  EXPECT_NE(three.find("vocab=32000"), std::string::npos) << three;
  EXPECT_EQ(three.find("ffn_dim"), std::string::npos) << three;  // 768 = 3 * 256
  const std::string eight = check_tensor_parallel(tiny, 8);
  EXPECT_NE(eight.find("n_kv_heads=4"), std::string::npos) << eight;
  EXPECT_EQ(eight.find("n_heads=8"), std::string::npos) << eight;
  EXPECT_NE(check_tensor_parallel(tiny, 0), "");
}

TEST(ModelConfig, EightBSplitsOverEightRanks) {
  EXPECT_EQ(check_tensor_parallel(model_preset("8b"), 8), "");
  EXPECT_NE(check_tensor_parallel(model_preset("8b"), 16), "");  // 8 KV heads
}

TEST(ModelConfig, InconsistentConfigsAreExplained) {
  ModelConfig c = model_preset("tiny");
  c.n_kv_heads = 3;
  EXPECT_NE(check_model_config(c).find("n_kv_heads=3"), std::string::npos);
  c = model_preset("tiny");
  c.dim = 250;
  EXPECT_NE(check_model_config(c).find("dim=250"), std::string::npos);
  c = model_preset("tiny");
  c.dim = 8 * 33;  // odd head_dim cannot be rotated in pairs
  EXPECT_NE(check_model_config(c).find("even"), std::string::npos);
}

}  // namespace
}  // namespace uniference
