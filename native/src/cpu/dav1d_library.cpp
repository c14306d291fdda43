#include "cpu/dav1d_library.hpp"

#include <dlfcn.h>

#include <cstdlib>

namespace rs {
namespace {

struct Loaded {
  Dav1dLibrary lib{};
  bool ok = false;
  std::string reason;
};

template <typename Fn>
bool bind(void* handle, const char* name, Fn& slot, std::string& reason) {
  void* symbol = dlsym(handle, name);
  if (!symbol) {
    reason = std::string("libdav1d lacks symbol ") + name;
    return false;
  }
  slot = reinterpret_cast<Fn>(symbol);
  return true;
}

Loaded load() {
  Loaded out;
  // The SONAME of the dav1d 1.x ABI. ROBOSTREAM_DAV1D_LIBRARY overrides it (a private build, or
  // a missing name to exercise the libaom fallback in tests).
  const char* override_name = std::getenv("ROBOSTREAM_DAV1D_LIBRARY");
  const char* name = override_name && *override_name ? override_name : "libdav1d.so.6";
  void* handle = dlopen(name, RTLD_NOW | RTLD_LOCAL);
  if (!handle) {
    const char* err = dlerror();
    out.reason = std::string("cannot load ") + name + ": " + (err ? err : "unknown error");
    return out;
  }
  Dav1dLibrary& l = out.lib;
  std::string& r = out.reason;
  out.ok = bind(handle, "dav1d_version", l.version, r) &&
           bind(handle, "dav1d_default_settings", l.default_settings, r) &&
           bind(handle, "dav1d_open", l.open, r) &&
           bind(handle, "dav1d_send_data", l.send_data, r) &&
           bind(handle, "dav1d_get_picture", l.get_picture, r) &&
           bind(handle, "dav1d_close", l.close, r) && bind(handle, "dav1d_flush", l.flush, r) &&
           bind(handle, "dav1d_data_create", l.data_create, r) &&
           bind(handle, "dav1d_data_unref", l.data_unref, r) &&
           bind(handle, "dav1d_picture_unref", l.picture_unref, r);
  // The handle stays open for the life of the process: decoders may exist until exit.
  return out;
}

const Loaded& loaded() {
  static const Loaded instance = load();
  return instance;
}

}  // namespace

const Dav1dLibrary* Dav1dLibrary::get() {
  const Loaded& l = loaded();
  return l.ok ? &l.lib : nullptr;
}

const std::string& Dav1dLibrary::unavailable_reason() { return loaded().reason; }

}  // namespace rs
