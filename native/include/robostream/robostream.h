/*
 * robostream native core: the C API that the Java bindings (JavaCPP, org.robostream.nativecore)
 * parse. It is deliberately plain C with opaque handles so that no dav1d, libyuv, CUDA or
 * ffnvcodec type leaks into the binding layer.
 *
 * Error contract: every function that can fail returns an int status (RS_OK on success, else one of
 * the RS_ERR_* codes); the message of the last failure on the calling thread is read with
 * rs_last_error(). Internally the core throws a small C++ exception hierarchy (rs::Error and its
 * subclasses); the functions of this header are the single place where those exceptions are caught
 * and turned into codes, so no C++ exception ever unwinds through JNI.
 *
 * Ownership (one rule for every function that consumes a handle; today rs_device_batch_export):
 * ownership moves only on success. When the call returns RS_OK the
 * handle belongs to the exported array and the caller must never use or free it again; when it
 * returns an error nothing was exported, the handle is unchanged and still the caller's, to use,
 * export again or free (rs_*_free). Functions that only free (rs_*_free, rs_*_close) always
 * consume their handle.
 *
 * Sizes: frame sides are 1..16384, window lengths 1..4096, batches at most 2^24 rows and any
 * single buffer at most 2^40 bytes; larger values are RS_ERR_INVALID_ARGUMENT, checked before
 * anything is multiplied or allocated.
 *
 * Threading: handles are not thread-safe (one per worker thread) unless stated otherwise; the
 * process-wide counters (rs_live_objects, rs_live_bytes) are atomic.
 */
#ifndef ROBOSTREAM_ROBOSTREAM_H
#define ROBOSTREAM_ROBOSTREAM_H

#include <stdint.h>

#if defined(ROBOSTREAM_BUILDING_CORE)
#define RS_API __attribute__((visibility("default")))
#else
#define RS_API
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* Status codes. Keep in sync with org.robostream.nativecore.NativeStatus. */
#define RS_OK 0
#define RS_ERR_INVALID_ARGUMENT 1
#define RS_ERR_UNSUPPORTED 2
#define RS_ERR_CORRUPT_DATA 3
#define RS_ERR_OUT_OF_MEMORY 4
#define RS_ERR_LIBRARY_UNAVAILABLE 5
#define RS_ERR_INTERNAL 6

/* Colour matrices (values match FFmpeg's AVColorSpace where they overlap). */
#define RS_MATRIX_BT709 1
#define RS_MATRIX_BT601 6
#define RS_MATRIX_BT2020 9

/* Frame layouts of an RGB uint8 slot. */
#define RS_LAYOUT_HWC 0
#define RS_LAYOUT_CHW 1

/* Chroma subsampling of a planar YUV source. */
#define RS_CHROMA_420 420
#define RS_CHROMA_422 422
#define RS_CHROMA_444 444

/** Version string of the native core (static storage). */
RS_API const char* rs_version(void);

/** Message of the last failed call on this thread ("" when none). Valid until the next call. */
RS_API const char* rs_last_error(void);

/** Number of live native objects (decoders, pools, batches, transfers): leak checks. */
RS_API int64_t rs_live_objects(void);

/** Bytes of batch buffers allocated by pools and not freed yet (pooled or in use): leak checks. */
RS_API int64_t rs_live_bytes(void);

/**
 * Fault injection for tests of the error paths: on the calling thread, the next `succeed_first`
 * allocations of batch memory (batch buffers, new pooled buffers, exported Arrow nodes) succeed
 * and the `then_fail` after them fail with RS_ERR_OUT_OF_MEMORY. (0, 0) turns it off.
 */
RS_API void rs_debug_fail_allocations(int64_t succeed_first, int64_t then_fail);

/* ---------------------------------------------------------------- image transforms */

/*
 * The loader's built-in image transforms, applied to one frame before it is batched. `ops` holds
 * n_ops operations of RS_TF_OP_FLOATS floats each, {kind, a, b, c}, applied in order (0..64 of
 * them); every parameter is the caller's (nothing here is random):
 *   RS_TF_BRIGHTNESS a: factor in [0, 16] (the colour times a)
 *   RS_TF_CONTRAST   a: factor in [0, 16] (blend with the frame's mean grey)
 *   RS_TF_SATURATION a: factor in [0, 16] (blend with each pixel's grey)
 *   RS_TF_HUE        a: turns in [-0.5, 0.5] (rotation of the chroma about the grey axis)
 *   RS_TF_SHARPNESS  a: factor in [0, 16] (blend with the 3x3 smoothing [[1,1,1],[1,5,1],
 *                    [1,1,1]]/13; border pixels kept)
 *   RS_TF_AFFINE     a: degrees in [-180, 180], counter-clockwise about the centre; b, c:
 *                    translation in fractions of the width and height, in [-1, 1]; nearest
 *                    neighbour, black where nothing maps
 * Grey is BT.601 luma. Runs of colour operations are composed into one map (they differ from
 * clamping after each only where a value leaves the range in between).
 */
#define RS_TF_BRIGHTNESS 1
#define RS_TF_CONTRAST 2
#define RS_TF_SATURATION 3
#define RS_TF_HUE 4
#define RS_TF_SHARPNESS 5
#define RS_TF_AFFINE 6
#define RS_TF_OP_FLOATS 4
/* Bytes every scratch buffer of the image transforms has beyond its data (gathers read ahead). */
#define RS_TF_SCRATCH_PADDING 64

/**
 * Bytes of a packed 8-bit planar YUV picture (Y width x height, then U and V of
 * ceil(width / 2^chroma_w_shift) x ceil(height / 2^chroma_h_shift), back to back, FFmpeg's
 * alignment 1), or -status for a size out of range.
 */
RS_API int64_t rs_transform_yuv8_bytes(int width, int height, int chroma_w_shift,
                                       int chroma_h_shift);

/**
 * dst = the packed 8-bit planar YUV picture at src with `ops` applied, before it is converted to
 * RGB: colour operations map luma and chroma (brightness and contrast keep black at Y 16, or 0
 * with full_range), sharpness filters luma only, the affine warps each plane at its own size
 * (corners: black). src and dst hold rs_transform_yuv8_bytes, scratch that +
 * RS_TF_SCRATCH_PADDING; dst must not overlap src or scratch.
 */
RS_API int rs_transform_yuv8(int64_t src, int64_t dst, int64_t scratch, int width, int height,
                             int chroma_w_shift, int chroma_h_shift, int full_range,
                             const float* ops, int n_ops);

/**
 * `ops` applied in place to the RGB frame at `frame`: width x height x 3 values, uint8 (is_float
 * 0) or float32 in [0, 1] (is_float 1), RS_LAYOUT_HWC or RS_LAYOUT_CHW. Sharpness filters every
 * channel. scratch holds two frames (2 x width x height x 3 values of the frame's type) +
 * RS_TF_SCRATCH_PADDING bytes.
 */
RS_API int rs_transform_rgb(int64_t frame, int64_t scratch, int width, int height, int layout,
                            int is_float, const float* ops, int n_ops);

/* ---------------------------------------------------------------- colour conversion (libyuv) */

/**
 * Converts one 8-bit planar YUV picture to RGB24 (R,G,B byte order) straight into dst, which holds
 * width*height*3 bytes laid out as HWC (packed rows) or CHW (three planes R, G, B).
 * matrix: RS_MATRIX_*; full_range: 0 limited (16-235), 1 full (0-255).
 */
RS_API int rs_convert_yuv8(const uint8_t* y, int y_stride, const uint8_t* u, int u_stride,
                           const uint8_t* v, int v_stride, int width, int height, int chroma,
                           int matrix, int full_range, uint8_t* dst, int layout);

/* ---------------------------------------------------------------- AV1 decoding (dav1d, dlopen) */

/** 1 when libdav1d could be loaded, else 0 (rs_av1_unavailable_reason tells why). Thread-safe. */
RS_API int rs_av1_available(void);

/** Why dav1d is unavailable ("" when it is available). Static storage. Thread-safe. */
RS_API const char* rs_av1_unavailable_reason(void);

/** dav1d's version string, or "" when unavailable. Thread-safe. */
RS_API const char* rs_av1_library_version(void);

/**
 * Opens a dav1d decoder with the given thread count (0: dav1d's default). max_frame_delay 1 gives
 * each picture right after its packet (best for random access); 0 lets dav1d pipeline frames
 * across threads (best for sequential throughput with threads > 1). handle_out[0] gets it.
 */
RS_API int rs_av1_open(int threads, int max_frame_delay, int64_t* handle_out);

/**
 * Feeds one demuxed packet (low-overhead OBUs, as stored in MP4). The bytes are copied, so the
 * caller may free the packet when the call returns. Decoded pictures are queued inside the decoder.
 */
RS_API int rs_av1_send(int64_t handle, const uint8_t* data, int size, int64_t pts);

/** Signals the end of input so that every picture still held back is queued. */
RS_API int rs_av1_drain(int64_t handle);

/**
 * Makes the next queued picture current. out[0] = 1 when a picture was available, else 0;
 * out[1] = its pts; out[2] = width; out[3] = height; out[4] = chroma (RS_CHROMA_*);
 * out[5] = bit depth; out[6] = matrix (RS_MATRIX_*, 0 unspecified); out[7] = full range (0/1).
 */
RS_API int rs_av1_next_picture(int64_t handle, int64_t* out);

/** Converts the current picture to RGB24 into dst (see rs_convert_yuv8). */
RS_API int rs_av1_convert_current(int64_t handle, int matrix, int full_range, uint8_t* dst,
                                  int layout);

/**
 * Plane layout of the current picture, for converters outside the core (swscale):
 * out[0..2] = Y, U, V plane addresses; out[3] = luma stride; out[4] = chroma stride (bytes);
 * out[5] = width; out[6] = height; out[7] = chroma (RS_CHROMA_*, 0 for monochrome);
 * out[8] = bit depth (samples above 8 bits are 16-bit little-endian words).
 * The planes stay valid until the next rs_av1_next_picture, rs_av1_flush or rs_av1_close.
 */
RS_API int rs_av1_current_planes(int64_t handle, int64_t* out);

/** Drops queued pictures and decoder state (after a seek). */
RS_API int rs_av1_flush(int64_t handle);

/** Closes the decoder. Idempotent for handle 0. */
RS_API void rs_av1_close(int64_t handle);

/* ---------------------------------------------------------------- frame batches (C Device Data) */

/*
 * The one frame batch of the core ("device batch": its buffers live on one device of the Arrow C
 * Device interface, the host or a CUDA GPU). Every decoder fills one: CPU converters write host
 * slots, NVDEC's colour kernel CUDA slots.
 */

/*
 * Value types of a frame column: uint8 RGB, or float32 RGB in [0, 1] (3 channels); a depth map's
 * values as uint16 or float32 (1 channel: shape [H,W,1] or [1,H,W]). The colour kernel and the
 * decoders' RGB converters write the RGB types only.
 */
#define RS_DTYPE_UINT8 0
#define RS_DTYPE_FLOAT32 1
#define RS_DTYPE_DEPTH_UINT16 2
#define RS_DTYPE_DEPTH_FLOAT32 3

/* Device types (the Arrow C Device interface's ARROW_DEVICE_* values). */
#define RS_DEVICE_CPU 1
#define RS_DEVICE_CUDA 2

/**
 * Creates a pool of batch buffers on a device: RS_DEVICE_CPU (host memory, device_id 0) or
 * RS_DEVICE_CUDA (device memory of cuda:device_id; fails with RS_ERR_LIBRARY_UNAVAILABLE and the
 * cause when CUDA cannot be used). Buffers are recycled by size. Thread-safe.
 * handle_out[0] gets the caller's reference; batches and exported arrays hold their own.
 */
RS_API int rs_pool_create(int device_type, int device_id, int64_t* handle_out);

/**
 * out[0] = buffers allocated, out[1] = acquisitions served from the pool, out[2] = bytes handed
 * out, out[3] = bytes idle in the pool, out[4] = events handed out.
 */
RS_API int rs_pool_stats(int64_t pool, int64_t* out);

/** Drops the caller's reference to a pool. Idempotent for handle 0. */
RS_API void rs_pool_free(int64_t pool);

/*
 * Raw buffers and copies on the pool's device, for frames that wait between decoding and their
 * batch (the streaming loader's shuffle buffer). Addresses are device pointers for CUDA pools.
 * Asynchronous operations are queued on a stream of the pool (0: the default stream); on host
 * pools they complete before they return and streams are 0.
 */

/** A pooled buffer of `bytes`; address_out[0] gets it. Give it back with rs_pool_release. */
RS_API int rs_pool_acquire(int64_t pool, int64_t bytes, int64_t* address_out);

/**
 * Returns a buffer from rs_pool_acquire (same byte count). A buffer the pool does not hold out
 * (never acquired, already returned, another size) is RS_ERR_INVALID_ARGUMENT and changes nothing.
 */
RS_API int rs_pool_release(int64_t pool, int64_t address, int64_t bytes);

/** A stream of the pool's device (0 on host pools); stream_out[0] gets it. */
RS_API int rs_pool_stream_create(int64_t pool, int64_t* stream_out);

/** Destroys a stream from rs_pool_stream_create. Idempotent for 0. */
RS_API void rs_pool_stream_free(int64_t pool, int64_t stream);

/** Waits until everything queued on `stream` is done. */
RS_API int rs_pool_stream_sync(int64_t pool, int64_t stream);

/** Copies `bytes` between two buffers of the pool's device, queued on `stream`. */
RS_API int rs_pool_copy(int64_t pool, int64_t dst, int64_t src, int64_t bytes, int64_t stream);

/**
 * Copies `bytes` of host memory into a buffer of the pool's device, queued on `stream`; the host
 * memory may be reused when this returns.
 */
RS_API int rs_pool_upload(int64_t pool, int64_t dst, const void* host_src, int64_t bytes,
                          int64_t stream);

/**
 * dst[i] = src[i] / 255 for `count` values: uint8 RGB (src) to float32 in [0, 1] (dst), both
 * buffers of the pool's device, queued on `stream`.
 */
RS_API int rs_pool_expand_unit_floats(int64_t pool, int64_t dst, int64_t src, int64_t count,
                                      int64_t stream);

/** Creates a batch of `rows` samples whose buffers come from `pool`. handle_out[0] gets it. */
RS_API int rs_device_batch_create(int64_t pool, int64_t rows, int64_t* handle_out);

/**
 * Adds a frame column (arrow.fixed_shape_tensor over FixedSizeList<uint8|float32|uint16>, shape
 * [H,W,C] or [C,H,W], C = 3 for RGB and 1 for depth dtypes) plus "<name>.pts" (float64) and
 * "<name>.frame_index" (int64). column_out[0] gets its index. Slots are uninitialised: fill every
 * row.
 */
RS_API int rs_device_batch_add_frame_column(int64_t batch, const char* name, int height, int width,
                                            int layout, int dtype, int32_t* column_out);

/**
 * Adds a window column: `positions` frames per row (shape [T,H,W,3] or [T,3,H,W], dim "T"
 * first), with "<name>.pts" and "<name>.frame_index" as FixedSizeList<T> (plain columns when
 * positions is 1). Frame slots are numbered row * positions + t.
 */
RS_API int rs_device_batch_add_window_column(int64_t batch, const char* name, int positions,
                                             int height, int width, int layout, int dtype,
                                             int32_t* column_out);

/** Device address (host address for CPU pools) of frame slot `slot` of a frame column. */
RS_API int rs_device_batch_frame_slot(int64_t batch, int column, int64_t slot,
                                      int64_t* address_out);

/** Records the pts (seconds) and frame index delivered in a frame slot of a frame column. */
RS_API int rs_device_batch_set_frame_info(int64_t batch, int column, int64_t slot,
                                          double pts_seconds, int64_t frame_index);

/**
 * Exports the batch as an ArrowDeviceArray + ArrowSchema (caller-allocated structs). The batch's
 * completion event is recorded on `stream` (a CUstream; 0 for the default stream; ignored for
 * CPU) and sync_event points at it (NULL for CPU). On RS_OK the batch belongs to the array
 * (releasing it returns every buffer and the event to the pool) and the handle must not be used
 * again; on an error the caller still owns the batch (the ownership rule at the top).
 */
RS_API int rs_device_batch_export(int64_t batch, int64_t stream, void* device_array,
                                  void* arrow_schema);

/**
 * A second export of a host batch's array from rs_device_batch_export (still unreleased, device
 * type CPU) as a plain struct ArrowArray + ArrowSchema (Arrow C Data interface), for consumers
 * that import host frames into an Arrow library while the device array stays with its owner.
 * Consumes nothing: the view shares the batch, whose buffers return to the pool once both arrays
 * are released. A batch on a GPU, a released or foreign array is RS_ERR_INVALID_ARGUMENT.
 */
RS_API int rs_device_batch_host_view(const void* device_array, void* arrow_array,
                                     void* arrow_schema);

/**
 * Copies an array exported by rs_device_batch_export (still unreleased) into a new batch on the
 * host pool `host_pool`, after waiting for its sync_event. handle_out[0] gets the new batch.
 */
RS_API int rs_device_batch_copy_to_host(const void* device_array, int64_t host_pool,
                                        int64_t* handle_out);

/** Frees a batch that was never exported (its buffers return to the pool). Idempotent for 0. */
RS_API void rs_device_batch_free(int64_t batch);

/* ---------------------------------------------------------------- CUDA and NVDEC */

/** 1 when the core carries its GPU colour kernel (nvcc was present at build time). */
RS_API int rs_cuda_compiled(void);

/**
 * Number of CUDA devices, or a negative value when CUDA cannot be used; rs_last_error() then
 * names the cause (no driver library, cuInit failure, no device). Computed once. Thread-safe.
 */
RS_API int rs_cuda_device_count(void);

/**
 * The CUDA driver's version as cuDriverGetVersion reports it (1000 * major + 10 * minor) in
 * *version_out. Known whenever libcuda.so.1 loads, even without a usable device; otherwise
 * RS_ERR_LIBRARY_UNAVAILABLE with the cause in rs_last_error(). Thread-safe.
 */
RS_API int rs_cuda_driver_version(int32_t* version_out);

/**
 * Makes `stream` (a CUstream of cuda:device_id, such as a consumer's current stream; 0 is the
 * legacy default stream) wait for `sync_event`, the sync_event of an exported ArrowDeviceArray (a
 * CUevent*, the C Device interface's convention), without blocking the host. A host batch's null
 * sync_event needs no wait: RS_OK. No driver: RS_ERR_LIBRARY_UNAVAILABLE; an unknown device:
 * RS_ERR_INVALID_ARGUMENT. The event stays the array's. Thread-safe.
 */
RS_API int rs_cuda_stream_wait_event(int device_id, int64_t sync_event, int64_t stream);

/**
 * 1 when NVDEC decoding can be used on cuda:device (driver, libnvcuvid, colour kernel), else 0
 * with the cause in rs_last_error().
 */
RS_API int rs_nvdec_available(int device);

/* Codecs for NVDEC (RS_CODEC_*). */
#define RS_CODEC_H264 1
#define RS_CODEC_HEVC 2
#define RS_CODEC_AV1 3
#define RS_CODEC_VP9 4
#define RS_CODEC_MPEG4 5

/**
 * Whether NVDEC of cuda:device decodes this codec (RS_CODEC_*), 4:2:0 chroma, bit depth and
 * size, from cuvidGetDecoderCaps (cached). supported_out[0] = 1 or 0; when 0, rs_last_error()
 * names the reason ("NVDEC of cuda:0 (NVIDIA H200) cannot decode AV1 8-bit ...").
 */
RS_API int rs_nvdec_supports(int device, int codec, int bit_depth, int width, int height,
                             int32_t* supported_out);

/**
 * Opens an NVDEC session on cuda:device for a codec. low_latency 1: each picture is displayed
 * right after its packet (random access). handle_out[0] gets it. Not thread-safe: one per worker.
 */
RS_API int rs_nvdec_open(int device, int codec, int low_latency, int64_t* handle_out);

/**
 * Feeds one packet holding one picture: H.264/HEVC in Annex-B, AV1 as low-overhead OBUs. The
 * bytes are consumed before the call returns. Take out every displayed picture before the next.
 */
RS_API int rs_nvdec_send(int64_t handle, const uint8_t* data, int size, int64_t pts);

/** End of input: every picture still held is displayed. */
RS_API int rs_nvdec_drain(int64_t handle);

/**
 * Makes the next displayed picture current. out[0] = 1 when there was one, else 0; out[1] = pts;
 * out[2] = width; out[3] = height; out[4] = bit depth; out[5] = matrix (RS_MATRIX_*, 0
 * unspecified); out[6] = full range (0/1).
 */
RS_API int rs_nvdec_next_picture(int64_t handle, int64_t* out);

/**
 * Converts the current picture to RGB (dtype RS_DTYPE_*, layout RS_LAYOUT_*) into a device slot
 * of `slot_bytes` holding an `out_width` x `out_height` frame, e.g. rs_device_batch_frame_slot of
 * a CUDA batch: the picture's own size, or another one (a resize), which the colour kernel scales
 * to bilinearly in the same pass. A frame of more than slot_bytes (3*out_width*out_height values),
 * an unknown layout or dtype is RS_ERR_INVALID_ARGUMENT, a picture NVDEC decoded with errors
 * (concealed or not) RS_ERR_CORRUPT_DATA. Written on return.
 */
RS_API int rs_nvdec_convert_current(int64_t handle, int64_t device_slot, int64_t slot_bytes,
                                    int out_width, int out_height, int layout, int dtype,
                                    int matrix, int full_range);

/**
 * Drops decoder state after a seek and returns the NVDEC decoder to the device's pool. When it
 * fails the session stays usable: the next rs_nvdec_send starts a new parser.
 */
RS_API int rs_nvdec_flush(int64_t handle);

/** The session's CUstream (for rs_device_batch_export). */
RS_API int64_t rs_nvdec_stream(int64_t handle);

/**
 * NVDEC pool counters of cuda:device: out[0] decoders created, out[1] reused, out[2] of those
 * reconfigured, out[3] in use, out[4] idle.
 */
RS_API int rs_nvdec_pool_stats(int device, int64_t* out);

/** Closes the session. Idempotent for handle 0. */
RS_API void rs_nvdec_close(int64_t handle);

/* ====================================================================================== */
/* Host-to-device transfers (bench --device cuda): pinned host staging, one async copy.    */
/* ====================================================================================== */

/**
 * Opens a transfer to cuda:device: pinned (page-locked) host staging memory, a device buffer and a
 * non-blocking stream of its own, all grown on demand. handle_out[0] gets it. Without a usable
 * GPU: RS_ERR_LIBRARY_UNAVAILABLE with the cause in rs_last_error(). Not thread-safe: one per
 * consumer thread.
 */
RS_API int rs_transfer_open(int device, int64_t* handle_out);

/**
 * Pinned host memory of at least bytes (> 0) to fill before rs_transfer_upload; address_out[0]
 * gets its address, valid until the next call on this transfer or rs_transfer_close. Growing it
 * does not keep the old contents.
 */
RS_API int rs_transfer_staging(int64_t transfer, int64_t bytes, int64_t* address_out);

/**
 * Copies the first bytes of the staging memory to the device (cuMemcpyHtoDAsync on the
 * transfer's stream) and waits until the copy is done.
 */
RS_API int rs_transfer_upload(int64_t transfer, int64_t bytes);

/** Copies the first bytes of the last upload from the device into host_dst (verification). */
RS_API int rs_transfer_read_back(int64_t transfer, void* host_dst, int64_t bytes);

/** Frees the transfer's memory and stream. Idempotent for handle 0. */
RS_API void rs_transfer_close(int64_t transfer);

/* ---- A loopback listener only chosen ports can reach (the trainer's store, issue 36) ----
 * libtorch's store authenticates nobody, and a loopback port is open to every local account. The
 * trainer's store therefore listens on a socket whose classic BPF filter drops every packet that
 * does not come from 127.0.0.1 and one of the admitted source ports: the ports of the trainer's
 * own relay sockets, bound before they connect. Others' connection attempts are dropped (their
 * connect times out); they never reach the accept queue. Linux only. */

/** The most source ports one filter admits (classic BPF holds 4096 instructions). */
#define RS_LOOPBACK_MAX_PORTS 2000

/**
 * Makes a TCP socket listening at 127.0.0.1 on a port the system picks, filtered before it
 * listens so that nothing can connect yet (no port admitted). fd_out gets the descriptor (close
 * on exec; the caller owns it), port_out the port.
 */
RS_API int rs_loopback_listen(int32_t* fd_out, int32_t* port_out);

/**
 * Replaces the filter of listening socket fd: from now on it admits connections from 127.0.0.1 at
 * exactly the count source ports of ports (0..RS_LOOPBACK_MAX_PORTS; none admits nobody).
 * Connections accepted before keep the filter they were accepted with.
 */
RS_API int rs_loopback_admit(int32_t fd, const uint16_t* ports, int32_t count);

/** Closes a listener of rs_loopback_listen that was not handed on (always consumes fd). */
RS_API void rs_loopback_close(int32_t fd);

#ifdef __cplusplus
}
#endif

#endif /* ROBOSTREAM_ROBOSTREAM_H */
