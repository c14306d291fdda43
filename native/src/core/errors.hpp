// The native core's error hierarchy. Code inside the core throws these; the C API functions
// (capi.cpp) are the only place that catches them and turns them into RS_ERR_* codes plus a
// thread-local message, so no C++ exception crosses the JNI boundary.
#pragma once

#include <stdexcept>
#include <string>

#include "robostream/robostream.h"

namespace rs {

class Error : public std::runtime_error {
 public:
  Error(int code, const std::string& message) : std::runtime_error(message), code_(code) {}
  int code() const noexcept { return code_; }

 private:
  int code_;
};

struct InvalidArgument : Error {
  explicit InvalidArgument(const std::string& m) : Error(RS_ERR_INVALID_ARGUMENT, m) {}
};
struct Unsupported : Error {
  explicit Unsupported(const std::string& m) : Error(RS_ERR_UNSUPPORTED, m) {}
};
struct CorruptData : Error {
  explicit CorruptData(const std::string& m) : Error(RS_ERR_CORRUPT_DATA, m) {}
};
struct OutOfMemory : Error {
  explicit OutOfMemory(const std::string& m) : Error(RS_ERR_OUT_OF_MEMORY, m) {}
};
struct LibraryUnavailable : Error {
  explicit LibraryUnavailable(const std::string& m) : Error(RS_ERR_LIBRARY_UNAVAILABLE, m) {}
};

// Stores the message for rs_last_error() on this thread.
void set_last_error(const std::string& message);
void clear_last_error();
const char* last_error();

// Runs body, translating any exception into a status code. Every C API entry point uses it.
template <typename Body>
int guarded(Body&& body) noexcept {
  try {
    clear_last_error();
    body();
    return RS_OK;
  } catch (const Error& e) {
    set_last_error(e.what());
    return e.code();
  } catch (const std::bad_alloc&) {
    set_last_error("native allocation failed");
    return RS_ERR_OUT_OF_MEMORY;
  } catch (const std::exception& e) {
    set_last_error(std::string("internal error: ") + e.what());
    return RS_ERR_INTERNAL;
  } catch (...) {
    set_last_error("internal error: unknown exception");
    return RS_ERR_INTERNAL;
  }
}

}  // namespace rs
