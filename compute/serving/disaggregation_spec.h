// How many replicas serve prefill and how many decode, when they are split (plain data, so
// scenario reading needs no libtorch); compute/serving/disaggregation.h runs it.
#pragma once

namespace uniference {

struct Disaggregation {
  int prefill = 0;  // replicas in the prefill pool; 0: not disaggregated
  int decode = 0;   // replicas in the decode pool
  bool enabled() const { return prefill > 0; }
};

}  // namespace uniference
