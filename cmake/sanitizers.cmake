# A build under AddressSanitizer and UndefinedBehaviorSanitizer (scripts/sanitize.sh):
#   -DUNIFERENCE_SANITIZE=address,undefined -DUNIFERENCE_BOOST_SOURCE=<boost1.74 source>
#
# The logical processes are Boost.Fiber fibers. Debian's libboost_fiber switches stacks with
# Boost.Context's fcontext, in assembly inside the shared library, which ASan cannot follow:
# an exception unwinding inside a fiber reads to ASan as a stack overflow into another
# stack. Boost tells ASan of each switch only in its ucontext variant (BOOST_USE_UCONTEXT
# and BOOST_USE_ASAN), whose context switch is all in headers; so this build compiles
# Boost.Fiber's sources from Debian's own source package (the same 1.74 as the headers it
# installed) with those definitions, and Boost.Context's few sources beside them, instead of
# linking Debian's libraries. The project's code is compiled with the same definitions, so
# both sides agree on what a fiber's context is.
#
# vptr checks are off: libtorch and ns-3 are not instrumented, and UBSan's vptr check needs
# the type information of every class it sees. A function that can fall off its end without
# returning is an error here (-Werror=return-type); the plain builds keep GCC's warning, so
# that their compiler cache is not invalidated (a flag in every object's command line).

set(UNIFERENCE_SANITIZE "" CACHE STRING "Sanitizers to build with (address,undefined), or none")
set(UNIFERENCE_BOOST_SOURCE "" CACHE PATH "Boost 1.74's source tree, for a sanitized build")

if(NOT UNIFERENCE_SANITIZE)
  set(UNIFERENCE_FIBER_LIBRARIES Boost::fiber Boost::context)
  return()
endif()

set(boost_fiber_src ${UNIFERENCE_BOOST_SOURCE}/libs/fiber/src)
if(NOT EXISTS ${boost_fiber_src}/fiber.cpp)
  message(FATAL_ERROR "UNIFERENCE_SANITIZE needs UNIFERENCE_BOOST_SOURCE, Boost 1.74's source "
                      "tree (scripts/sanitize.sh fetches Debian's); no ${boost_fiber_src}/fiber.cpp")
endif()
message(STATUS "Sanitizers: ${UNIFERENCE_SANITIZE}; Boost.Fiber from ${UNIFERENCE_BOOST_SOURCE}")
add_compile_options(-fsanitize=${UNIFERENCE_SANITIZE} -fno-sanitize=vptr -fno-omit-frame-pointer
                    -Werror=return-type)
add_link_options(-fsanitize=${UNIFERENCE_SANITIZE} -fno-sanitize=vptr)
add_compile_definitions(BOOST_USE_UCONTEXT BOOST_USE_ASAN)

file(GLOB boost_fiber_sources ${boost_fiber_src}/*.cpp ${boost_fiber_src}/algo/*.cpp)
# Boost.Context's part: the ucontext fiber's thread-local activation records, and stack traits.
add_library(uniference_boost_fiber STATIC ${boost_fiber_sources}
  ${UNIFERENCE_BOOST_SOURCE}/libs/context/src/fiber.cpp
  ${UNIFERENCE_BOOST_SOURCE}/libs/context/src/posix/stack_traits.cpp)
target_include_directories(uniference_boost_fiber PUBLIC ${Boost_INCLUDE_DIRS})
# On the target too: this directory's definitions are cleared once its subdirectories are
# added (CMakeLists.txt), and the target is built from what is left then.
target_compile_definitions(uniference_boost_fiber PUBLIC BOOST_USE_UCONTEXT BOOST_USE_ASAN)
target_link_libraries(uniference_boost_fiber PUBLIC Threads::Threads)
set_target_properties(uniference_boost_fiber PROPERTIES POSITION_INDEPENDENT_CODE ON)
set(UNIFERENCE_FIBER_LIBRARIES uniference_boost_fiber)
