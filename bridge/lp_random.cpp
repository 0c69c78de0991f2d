#include "bridge/lp_random.h"

#include <ATen/CPUGeneratorImpl.h>

#include <mutex>

namespace uniference {

GeneratorState lp_generator_state(uint64_t seed, int rank) {
  // splitmix64 of (seed, rank): mt19937 keeps 32 bits of its seed, so fold both in.
  uint64_t z = seed + 0x9E3779B97F4A7C15ull * (static_cast<uint64_t>(rank) + 1);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  z ^= z >> 31;
  return GeneratorState{at::mt19937(z ^ (z >> 32)), c10::nullopt, c10::nullopt};
}

GeneratorState swap_default_generator(const GeneratorState& next) {
  // Generator::mutex() is not const in this libtorch; the default generator is shared.
  auto& generator = const_cast<at::Generator&>(at::detail::getDefaultCPUGenerator());
  std::lock_guard<std::mutex> lock(generator.mutex());
  auto* impl = at::check_generator<at::CPUGeneratorImpl>(generator);
  GeneratorState previous{impl->engine(), impl->next_float_normal_sample(),
                          impl->next_double_normal_sample()};
  impl->set_engine(next.engine);
  impl->set_next_float_normal_sample(next.next_float_normal);
  impl->set_next_double_normal_sample(next.next_double_normal);
  return previous;
}

}  // namespace uniference
