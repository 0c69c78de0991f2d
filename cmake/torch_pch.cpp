// The translation unit that precompiles libtorch's headers (see torch_pch.cmake); it has
// no code of its own.
