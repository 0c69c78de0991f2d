// A model small enough to build several shards of in a test, with grouped-query attention.
#pragma once

#include "compute/model_config.h"

namespace uniference {

inline ModelConfig small_config() {
  ModelConfig c;
  c.name = "small";
  c.dim = 64;
  c.n_layers = 2;
  c.n_heads = 8;
  c.n_kv_heads = 4;
  c.ffn_dim = 128;
  c.vocab = 512;
  c.max_seq = 64;
  return c;
}

}  // namespace uniference
