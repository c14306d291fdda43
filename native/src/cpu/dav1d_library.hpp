// libdav1d loaded at run time with dlopen, so the core has no NEEDED entry for it and still loads
// (reporting AV1 as unavailable) on machines without the library.
#pragma once

#include <dav1d/dav1d.h>

#include <string>

namespace rs {

struct Dav1dLibrary {
  const char* (*version)(void);
  void (*default_settings)(Dav1dSettings*);
  int (*open)(Dav1dContext**, const Dav1dSettings*);
  int (*send_data)(Dav1dContext*, Dav1dData*);
  int (*get_picture)(Dav1dContext*, Dav1dPicture*);
  void (*close)(Dav1dContext**);
  void (*flush)(Dav1dContext*);
  uint8_t* (*data_create)(Dav1dData*, size_t);
  void (*data_unref)(Dav1dData*);
  void (*picture_unref)(Dav1dPicture*);

  // Loads the library once per process; thread-safe. Returns nullptr when unavailable, with the
  // cause in unavailable_reason().
  static const Dav1dLibrary* get();
  static const std::string& unavailable_reason();
};

}  // namespace rs
