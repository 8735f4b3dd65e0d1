# Header-only libraries from Debian, made visible to both the native and the Emscripten
# compiler. Emscripten must not see /usr/include (glibc headers), so nlohmann/json is reached
# through a private folder that holds only a link to it.
add_library(eigen INTERFACE)
target_include_directories(eigen SYSTEM INTERFACE "${EIGEN3_INCLUDE_DIR}")
if(NOT EXISTS "${EIGEN3_INCLUDE_DIR}/Eigen/Core")
  message(FATAL_ERROR "Eigen not found in ${EIGEN3_INCLUDE_DIR}: run scripts/setup.sh or set EIGEN3_INCLUDE_DIR")
endif()

if(NOT EXISTS "${NLOHMANN_JSON_INCLUDE}/nlohmann/json.hpp")
  message(FATAL_ERROR "nlohmann/json not found in ${NLOHMANN_JSON_INCLUDE}: run scripts/setup.sh or set NLOHMANN_JSON_INCLUDE")
endif()
set(_json_shim "${CMAKE_BINARY_DIR}/third_party/include")
file(MAKE_DIRECTORY "${_json_shim}")
file(CREATE_LINK "${NLOHMANN_JSON_INCLUDE}/nlohmann" "${_json_shim}/nlohmann" SYMBOLIC)
add_library(nlohmann_json INTERFACE)
target_include_directories(nlohmann_json SYSTEM INTERFACE "${_json_shim}")
