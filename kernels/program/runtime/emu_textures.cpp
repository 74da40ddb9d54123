// libws_program_emu's texture objects (ws_program.h): CUDA arrays are row-major buffers, a texture
// object remembers its texels' place and format and how it is sampled, and each fetch reads the
// texel the addressing and filtering give and records a texture read of it.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <mutex>
#include <string>
#include <vector>

#include "emu_program_state.h"

using ws::prog::detail::Fail;
using ws::prog::detail::P;

struct cudaArray {
  void* data = nullptr;
  cudaChannelFormatDesc desc{};
  std::size_t width = 0, height = 0, texel = 0;  // texel: bytes
  std::size_t depth = 1;                         // slices: a 3D array's, layers, faces
  unsigned int flags = 0;                        // cudaArrayLayered, cudaArrayCubemap
};

namespace {

struct Texture {
  const unsigned char* base = nullptr;
  std::size_t width = 0, height = 0, pitch = 0;  // texels, rows; bytes a row
  std::size_t depth = 1, slice = 0;              // slices (cudaArray::depth); bytes a slice
  unsigned int flags = 0;                        // the array's (cudaArrayLayered, ...)
  cudaChannelFormatDesc desc{};
  std::size_t texel = 0;  // bytes
  cudaTextureDesc how{};
  bool one_dimensional = false;
  bool live = false;
};

std::mutex g_mutex;
std::vector<Texture> g_textures;  // object - 1

std::size_t TexelBytes(const cudaChannelFormatDesc& d) {
  return static_cast<std::size_t>((d.x + d.y + d.z + d.w) / 8);
}
int Components(const cudaChannelFormatDesc& d) {
  return (d.x > 0) + (d.y > 0) + (d.z > 0) + (d.w > 0);
}

// Index `i` of `n` under an address mode (-1: outside, the border).
long long Address(long long i, std::size_t n, cudaTextureAddressMode mode) {
  const auto count = static_cast<long long>(n);
  if (i >= 0 && i < count) return i;
  switch (mode) {
    case cudaAddressModeWrap:
      return ((i % count) + count) % count;
    case cudaAddressModeMirror: {
      const long long period = 2 * count;
      const long long m = ((i % period) + period) % period;
      return m < count ? m : period - 1 - m;
    }
    case cudaAddressModeBorder:
      return -1;
    case cudaAddressModeClamp:
    default:
      return i < 0 ? 0 : count - 1;
  }
}

// Texel (x, y)'s components as floats (normalized where the read mode says), into `out[4]`.
void Components(const Texture& t, const unsigned char* texel, bool normalize, float* out) {
  const int n = Components(t.desc);
  const int bits = t.desc.x;
  for (int c = 0; c < 4; ++c) out[c] = 0.0f;
  for (int c = 0; c < n; ++c) {
    const unsigned char* p = texel + c * (bits / 8);
    double v = 0;
    if (t.desc.f == cudaChannelFormatKindFloat) {
      float f = 0;
      std::memcpy(&f, p, sizeof f);
      v = f;
    } else if (bits == 8) {
      v = t.desc.f == cudaChannelFormatKindSigned
              ? static_cast<double>(static_cast<signed char>(*p))
              : static_cast<double>(*p);
      if (normalize) v /= t.desc.f == cudaChannelFormatKindSigned ? 127.0 : 255.0;
    } else if (bits == 16) {
      std::uint16_t u = 0;
      std::memcpy(&u, p, 2);
      v = t.desc.f == cudaChannelFormatKindSigned
              ? static_cast<double>(static_cast<std::int16_t>(u))
              : static_cast<double>(u);
      if (normalize) v /= t.desc.f == cudaChannelFormatKindSigned ? 32767.0 : 65535.0;
    } else {
      std::uint32_t u = 0;
      std::memcpy(&u, p, 4);
      v = t.desc.f == cudaChannelFormatKindSigned
              ? static_cast<double>(static_cast<std::int32_t>(u))
              : static_cast<double>(u);
    }
    out[c] = static_cast<float>(v);
  }
}

}  // namespace

cudaChannelFormatDesc cudaCreateChannelDesc(int x, int y, int z, int w, cudaChannelFormatKind f) {
  return {x, y, z, w, f};
}

cudaError_t cudaMallocArray(cudaArray_t* array, const cudaChannelFormatDesc* desc,
                            std::size_t width, std::size_t height, unsigned int) {
  if (array == nullptr || desc == nullptr || width == 0)
    return Fail(cudaErrorInvalidValue, "cudaMallocArray: a null argument or a width of 0");
  const std::size_t texel = TexelBytes(*desc);
  if (texel == 0 || texel > 16 || desc->x % 8 != 0)
    return Fail(cudaErrorInvalidChannelDescriptor,
                "cudaMallocArray: a channel format of " + std::to_string(desc->x) + "+" +
                    std::to_string(desc->y) + "+" + std::to_string(desc->z) + "+" +
                    std::to_string(desc->w) + " bits");
  auto* a = new cudaArray;
  a->desc = *desc;
  a->width = width;
  a->height = std::max<std::size_t>(height, 1);
  a->texel = texel;
  if (P().next_name.empty()) P().next_name = "cudaArray";
  const cudaError_t e = cudaMalloc(&a->data, texel * a->width * a->height);
  if (e != cudaSuccess) {
    delete a;
    return e;
  }
  *array = a;
  return cudaSuccess;
}

cudaError_t cudaMalloc3DArray(cudaArray_t* array, const cudaChannelFormatDesc* desc,
                              cudaExtent extent, unsigned int flags) {
  const std::size_t depth = std::max<std::size_t>(extent.depth, 1);
  if ((flags & cudaArrayCubemap) != 0 &&
      (extent.width != extent.height ||
       ((flags & cudaArrayLayered) != 0 ? depth % 6 != 0 : depth != 6)))
    return Fail(cudaErrorInvalidValue,
                "cudaMalloc3DArray: a cubemap's width and height are equal and its depth 6 (a "
                "layered cubemap's a multiple of 6); here " +
                    std::to_string(extent.width) + " x " + std::to_string(extent.height) + " x " +
                    std::to_string(extent.depth));
  // (A layered 1D array's extent is (w, 0, layers): one row a layer.)
  if (const cudaError_t e = cudaMallocArray(array, desc, extent.width,
                                            std::max<std::size_t>(extent.height, 1) * depth, flags);
      e != cudaSuccess)
    return e;
  (*array)->height = std::max<std::size_t>(extent.height, 1);
  (*array)->depth = depth;
  (*array)->flags = flags;
  return cudaSuccess;
}

namespace {
// Rows of `row` bytes: `rows` of them (a slice's height times the slices) from `src` (its rows
// `spitch` apart, its slices `sslice` apart) to `dst` likewise.
void CopyRows(unsigned char* dst, std::size_t dpitch, std::size_t dslice, const unsigned char* src,
              std::size_t spitch, std::size_t sslice, std::size_t row, std::size_t height,
              std::size_t depth) {
  for (std::size_t z = 0; z < depth; ++z)
    for (std::size_t y = 0; y < height; ++y)
      std::memcpy(dst + z * dslice + y * dpitch, src + z * sslice + y * spitch, row);
}
}  // namespace

cudaError_t cudaMemcpy3D(const cudaMemcpy3DParms* p) {
  if (p == nullptr) return Fail(cudaErrorInvalidValue, "cudaMemcpy3D: null parameters");
  if ((p->srcArray != nullptr) == (p->srcPtr.ptr != nullptr) ||
      (p->dstArray != nullptr) == (p->dstPtr.ptr != nullptr))
    return Fail(cudaErrorInvalidValue,
                "cudaMemcpy3D: one source (an array or a pitched pointer) and one destination");
  const cudaArray* array = p->srcArray != nullptr ? p->srcArray : p->dstArray;
  const std::size_t texel = array != nullptr ? array->texel : 1;  // extent in elements, or bytes
  const std::size_t row = p->extent.width * texel,
                    height = std::max<std::size_t>(p->extent.height, 1),
                    depth = std::max<std::size_t>(p->extent.depth, 1);
  struct Side {
    unsigned char* base;
    std::size_t pitch, slice, width, rows, slices;  // width in bytes; rows a slice
  };
  auto side = [&](const cudaArray* a, const cudaPitchedPtr& ptr, const cudaPos& pos) {
    Side s{};
    if (a != nullptr) {
      s.pitch = a->width * a->texel;
      s.slice = s.pitch * a->height;
      s.width = s.pitch;
      s.rows = a->height;
      s.slices = a->depth;
      s.base = static_cast<unsigned char*>(a->data) + pos.z * s.slice + pos.y * s.pitch +
               pos.x * a->texel;
    } else {
      s.pitch = ptr.pitch;
      s.slice = ptr.pitch * ptr.ysize;
      s.width = ptr.pitch;
      s.rows = ptr.ysize;
      s.slices = ~std::size_t{0};
      s.base =
          static_cast<unsigned char*>(ptr.ptr) + pos.z * s.slice + pos.y * s.pitch + pos.x * texel;
    }
    return s;
  };
  const Side s = side(p->srcArray, p->srcPtr, p->srcPos);
  const Side d = side(p->dstArray, p->dstPtr, p->dstPos);
  auto fits = [&](const Side& x, const cudaPos& pos) {
    return pos.x * texel + row <= x.width && pos.y + height <= std::max<std::size_t>(x.rows, 1) &&
           (x.slices == ~std::size_t{0} || pos.z + depth <= x.slices);
  };
  if (!fits(s, p->srcPos) || !fits(d, p->dstPos))
    return Fail(cudaErrorInvalidValue,
                "cudaMemcpy3D: an extent of " + std::to_string(p->extent.width) + " x " +
                    std::to_string(p->extent.height) + " x " + std::to_string(p->extent.depth) +
                    " does not fit its source or destination at their positions");
  CopyRows(d.base, d.pitch, d.slice, s.base, s.pitch, s.slice, row, height, depth);
  return cudaSuccess;
}

cudaError_t cudaMemcpy3DAsync(const cudaMemcpy3DParms* p, cudaStream_t stream) {
  if (p == nullptr) return cudaErrorInvalidValue;
  const cudaMemcpy3DParms copy = *p;
  auto run = [copy] { return cudaMemcpy3D(&copy); };
  return ws::prog::detail::CaptureCopy(stream, "memcpy", run) ? cudaSuccess : run();
}

cudaError_t cudaFreeArray(cudaArray_t array) {
  if (array == nullptr) return cudaSuccess;
  const cudaError_t e = cudaFree(array->data);
  delete array;
  return e;
}

cudaError_t cudaMemcpy2DToArray(cudaArray_t dst, std::size_t w_offset, std::size_t h_offset,
                                const void* src, std::size_t spitch, std::size_t width,
                                std::size_t height, cudaMemcpyKind kind) {
  if (dst == nullptr) return Fail(cudaErrorInvalidValue, "cudaMemcpy2DToArray: a null array");
  const std::size_t row = dst->width * dst->texel;
  if (w_offset + width > row || h_offset + height > dst->height)
    return Fail(cudaErrorInvalidValue, "cudaMemcpy2DToArray: " + std::to_string(width) + " x " +
                                           std::to_string(height) + " bytes at (" +
                                           std::to_string(w_offset) + ", " +
                                           std::to_string(h_offset) + ") do not fit the array");
  const cudaMemcpyKind to_device =
      kind == cudaMemcpyDeviceToDevice ? cudaMemcpyDeviceToDevice : cudaMemcpyHostToDevice;
  return cudaMemcpy2D(static_cast<char*>(dst->data) + h_offset * row + w_offset, row, src, spitch,
                      width, height, to_device);
}

cudaError_t cudaMemcpyToArray(cudaArray_t dst, std::size_t w_offset, std::size_t h_offset,
                              const void* src, std::size_t count, cudaMemcpyKind kind) {
  if (dst == nullptr) return Fail(cudaErrorInvalidValue, "cudaMemcpyToArray: a null array");
  const std::size_t row = dst->width * dst->texel;
  const std::size_t at = h_offset * row + w_offset;
  if (at + count > row * dst->height)
    return Fail(cudaErrorInvalidValue,
                "cudaMemcpyToArray: " + std::to_string(count) + " bytes do not fit the array");
  return cudaMemcpy(static_cast<char*>(dst->data) + at, src, count,
                    kind == cudaMemcpyDeviceToDevice ? kind : cudaMemcpyHostToDevice);
}

cudaError_t cudaMemcpy2DFromArray(void* dst, std::size_t dpitch, cudaArray_const_t src,
                                  std::size_t w_offset, std::size_t h_offset, std::size_t width,
                                  std::size_t height, cudaMemcpyKind kind) {
  if (src == nullptr) return Fail(cudaErrorInvalidValue, "cudaMemcpy2DFromArray: a null array");
  const std::size_t row = src->width * src->texel;
  if (w_offset + width > row || h_offset + height > src->height)
    return Fail(cudaErrorInvalidValue, "cudaMemcpy2DFromArray: the rectangle is outside the array");
  return cudaMemcpy2D(dst, dpitch, static_cast<const char*>(src->data) + h_offset * row + w_offset,
                      row, width, height,
                      kind == cudaMemcpyDeviceToDevice ? kind : cudaMemcpyDeviceToHost);
}

cudaError_t cudaMemcpyFromArray(void* dst, cudaArray_const_t src, std::size_t w_offset,
                                std::size_t h_offset, std::size_t count, cudaMemcpyKind kind) {
  if (src == nullptr) return Fail(cudaErrorInvalidValue, "cudaMemcpyFromArray: a null array");
  const std::size_t row = src->width * src->texel;
  const std::size_t at = h_offset * row + w_offset;
  if (at + count > row * src->height)
    return Fail(cudaErrorInvalidValue, "cudaMemcpyFromArray: past the array's end");
  return cudaMemcpy(dst, static_cast<const char*>(src->data) + at, count,
                    kind == cudaMemcpyDeviceToDevice ? kind : cudaMemcpyDeviceToHost);
}

cudaError_t cudaCreateTextureObject(cudaTextureObject_t* object, const cudaResourceDesc* resource,
                                    const cudaTextureDesc* texture, const cudaResourceViewDesc*) {
  if (object == nullptr || resource == nullptr || texture == nullptr)
    return Fail(cudaErrorInvalidValue, "cudaCreateTextureObject: a null argument");
  Texture t;
  t.how = *texture;
  switch (resource->resType) {
    case cudaResourceTypeArray: {
      const cudaArray* a = resource->res.array.array;
      if (a == nullptr) return Fail(cudaErrorInvalidValue, "cudaCreateTextureObject: a null array");
      t.base = static_cast<const unsigned char*>(a->data);
      t.desc = a->desc;
      t.width = a->width;
      t.height = a->height;
      t.pitch = a->width * a->texel;
      t.depth = a->depth;
      t.slice = t.pitch * a->height;
      t.flags = a->flags;
      break;
    }
    case cudaResourceTypeLinear:
      t.base = static_cast<const unsigned char*>(resource->res.linear.devPtr);
      t.desc = resource->res.linear.desc;
      t.width = TexelBytes(t.desc) > 0 ? resource->res.linear.sizeInBytes / TexelBytes(t.desc) : 0;
      t.height = 1;
      t.pitch = resource->res.linear.sizeInBytes;
      t.one_dimensional = true;
      break;
    case cudaResourceTypePitch2D:
      t.base = static_cast<const unsigned char*>(resource->res.pitch2D.devPtr);
      t.desc = resource->res.pitch2D.desc;
      t.width = resource->res.pitch2D.width;
      t.height = resource->res.pitch2D.height;
      t.pitch = resource->res.pitch2D.pitchInBytes;
      break;
    default:
      return Fail(cudaErrorNotSupported,
                  "cudaCreateTextureObject: mipmapped arrays are not supported (yet)");
  }
  t.texel = TexelBytes(t.desc);
  if (t.texel == 0 || t.texel > 16 || t.desc.x % 8 != 0)
    return Fail(cudaErrorInvalidChannelDescriptor, "cudaCreateTextureObject: a channel format of " +
                                                       std::to_string(t.texel * 8) + " bits");
  if (t.base == nullptr || t.width == 0)
    return Fail(cudaErrorInvalidValue, "cudaCreateTextureObject: no memory behind the texture");
  t.live = true;
  std::lock_guard lock(g_mutex);
  g_textures.push_back(t);
  *object = g_textures.size();
  return cudaSuccess;
}

cudaError_t cudaDestroyTextureObject(cudaTextureObject_t object) {
  std::lock_guard lock(g_mutex);
  if (object == 0 || object > g_textures.size() || !g_textures[object - 1].live)
    return Fail(cudaErrorInvalidResourceHandle, "cudaDestroyTextureObject: not a live texture");
  g_textures[object - 1].live = false;
  return cudaSuccess;
}

namespace ws::prog {

namespace {

// The live texture `object`, or (a fetch through anything else) the thread stopped.
Texture Live(unsigned long long object, unsigned int place, bool* ok) {
  std::lock_guard lock(g_mutex);
  *ok = object != 0 && object <= g_textures.size() && g_textures[object - 1].live;
  if (*ok) return g_textures[object - 1];
  if (::ws::emu::t_thread != nullptr)
    emu::FailThread(place & 0xffffu, "a texture fetch through " + std::to_string(object) +
                                         ", which is no live texture object");
  return {};
}

// A fetch of `t` at (x, y, z) in `dims` dimensions (0: tex1Dfetch's index; 1, 2, 3), in slice
// `slice` (a layer, a cubemap's face) for dims under 3; `normalized`: the coordinates are
// fractions of the extent. Point sampling reads one texel, linear filtering the 2, 4 or 8 around
// the point, weighted by the fractions (9-bit in hardware; exact here); the texel at the lower
// corner is the one recorded.
void Sample(const Texture& t, int dims, float x, float y, float z, std::size_t slice,
            bool normalized, unsigned int place, void* out, unsigned int bytes, bool floating) {
  const bool normalize = t.how.readMode == cudaReadModeNormalizedFloat &&
                         t.desc.f != cudaChannelFormatKindFloat && floating;
  const std::size_t h = dims >= 2 ? t.height : 1, d = dims == 3 ? t.depth : 1;
  auto texel_at = [&](long long i, long long j, long long k) -> const unsigned char* {
    if (i < 0 || j < 0 || k < 0) return nullptr;
    return t.base + (dims == 3 ? static_cast<std::size_t>(k) : slice) * t.slice +
           static_cast<std::size_t>(j) * t.pitch + static_cast<std::size_t>(i) * t.texel;
  };
  const unsigned char* first = nullptr;
  float value[4] = {0, 0, 0, 0};
  const bool linear = t.how.filterMode == cudaFilterModeLinear && floating && dims > 0;
  if (dims == 0) {  // tex1Dfetch: an index, no filtering; outside the texture reads 0
    const auto i = static_cast<long long>(x);
    if (i >= 0 && static_cast<std::size_t>(i) < t.width) first = texel_at(i, 0, 0);
  } else {
    float c[3] = {x, dims >= 2 ? y : 0.5f, dims == 3 ? z : 0.5f};
    const std::size_t n[3] = {t.width, h, d};
    if (normalized)
      for (int a = 0; a < dims; ++a) c[a] *= static_cast<float>(n[a]);
    if (linear) {
      long long lo[3] = {0, 0, 0};
      float f[3] = {0, 0, 0};
      for (int a = 0; a < dims; ++a) {
        const float p = c[a] - 0.5f;
        lo[a] = static_cast<long long>(std::floor(p));
        f[a] = p - static_cast<float>(lo[a]);
      }
      for (int corner = 0; corner < (1 << dims); ++corner) {
        long long idx[3] = {0, 0, 0};
        float w = 1.0f;
        for (int a = 0; a < dims; ++a) {
          const int up = corner >> a & 1;
          idx[a] = Address(lo[a] + up, n[a], t.how.addressMode[a]);
          w *= up ? f[a] : 1.0f - f[a];
        }
        const unsigned char* p = texel_at(idx[0], idx[1], idx[2]);
        if (first == nullptr && p != nullptr) first = p;
        if (p == nullptr) continue;
        float comp[4];
        Components(t, p, normalize, comp);
        for (int k = 0; k < 4; ++k) value[k] += w * comp[k];
      }
    } else {
      long long idx[3] = {0, 0, 0};
      for (int a = 0; a < dims; ++a)
        idx[a] = Address(static_cast<long long>(std::floor(c[a])), n[a], t.how.addressMode[a]);
      first = texel_at(idx[0], idx[1], idx[2]);
    }
  }
  if (first != nullptr) RecordTexture(first, static_cast<unsigned int>(t.texel), place);
  if (first == nullptr) {
    std::memset(out, 0, bytes);  // outside a border-addressed texture: the border, 0
    return;
  }
  if (floating && (normalize || linear)) {
    if (!linear) Components(t, first, normalize, value);
    std::memcpy(out, value, std::min<std::size_t>(bytes, sizeof value));
    return;
  }
  std::memcpy(out, first, std::min<std::size_t>(bytes, t.texel));
}

// A cubemap's face for direction (x, y, z), and the coordinates on it as fractions (the CUDA
// programming guide's table, OpenGL's): the largest component picks the face.
std::size_t CubeFace(float x, float y, float z, float* u, float* v) {
  const float ax = std::fabs(x), ay = std::fabs(y), az = std::fabs(z);
  std::size_t face = 0;
  float m = 1, s = 0, t = 0;
  if (ax >= ay && ax >= az) {
    face = x >= 0 ? 0 : 1;
    m = ax;
    s = x >= 0 ? -z : z;
    t = -y;
  } else if (ay >= az) {
    face = y >= 0 ? 2 : 3;
    m = ay;
    s = x;
    t = y >= 0 ? z : -z;
  } else {
    face = z >= 0 ? 4 : 5;
    m = az;
    s = z >= 0 ? x : -x;
    t = -y;
  }
  *u = m > 0 ? (s / m + 1.0f) / 2.0f : 0.5f;
  *v = m > 0 ? (t / m + 1.0f) / 2.0f : 0.5f;
  return face;
}

}  // namespace

void TexFetch(unsigned long long object, int dims, float x, float y, unsigned int place, void* out,
              unsigned int bytes, bool floating) {
  bool ok = false;
  const Texture t = Live(object, place, &ok);
  if (!ok) return;
  Sample(t, dims, x, y, 0, 0, t.how.normalizedCoords != 0, place, out, bytes, floating);
}

void TexFetchIn(unsigned long long object, int kind, float x, float y, float z, int layer,
                unsigned int place, void* out, unsigned int bytes, bool floating) {
  bool ok = false;
  Texture t = Live(object, place, &ok);
  if (!ok) return;
  const bool layered = kind == kTex1DLayered || kind == kTex2DLayered || kind == kTexCubemapLayered;
  const bool cube = kind == kTexCubemap || kind == kTexCubemapLayered;
  static const char* const kNames[] = {"tex3D", "tex1DLayered", "tex2DLayered", "texCubemap",
                                       "texCubemapLayered"};
  const bool fits = layered == ((t.flags & cudaArrayLayered) != 0) &&
                    cube == ((t.flags & cudaArrayCubemap) != 0) && t.slice > 0;
  if (!fits) {
    if (::ws::emu::t_thread == nullptr) return;
    emu::FailThread(place & 0xffffu,
                    std::string(kNames[kind - kTex3D]) +
                        " on a texture whose array was not made for it (cudaMalloc3DArray with " +
                        (layered ? "cudaArrayLayered" : "no cudaArrayLayered") +
                        (cube ? " and cudaArrayCubemap)" : ", no cudaArrayCubemap)"));
  }
  const std::size_t slices = cube ? 6 : 1;
  const std::size_t layers = std::max<std::size_t>(t.depth / slices, 1);
  // A layer outside the array is the nearest one (CUDA clamps it).
  const std::size_t l = layer < 0 ? 0 : std::min(static_cast<std::size_t>(layer), layers - 1);
  switch (kind) {
    case kTex3D:
      Sample(t, 3, x, y, z, 0, t.how.normalizedCoords != 0, place, out, bytes, floating);
      return;
    case kTex1DLayered:
      Sample(t, 1, x, 0, 0, l, t.how.normalizedCoords != 0, place, out, bytes, floating);
      return;
    case kTex2DLayered:
      Sample(t, 2, x, y, 0, l, t.how.normalizedCoords != 0, place, out, bytes, floating);
      return;
    default: {  // a cubemap: a face's coordinates are fractions, each face clamped at its edges
      float u = 0, v = 0;
      const std::size_t face = CubeFace(x, y, z, &u, &v);
      t.how.addressMode[0] = t.how.addressMode[1] = cudaAddressModeClamp;
      Sample(t, 2, u, v, 0, l * 6 + face, true, place, out, bytes, floating);
      return;
    }
  }
}

// A fetch's texel, as a texture read of its allocation (Classify keys it in the texture space):
// into the running warp function's slot for it (TakeTexel), else the thread's record.
void RecordTexture(const void* texel, unsigned int bytes, unsigned int place) {
  if (::ws::emu::t_thread == nullptr) return;
  const detail::Classified c =
      detail::Classify(texel, bytes, place, kOpLoad | ::ws::simt::kTexture);
  if (c.where != detail::Where::kRecorded) detail::BadAddressOf(texel, bytes, place, kOpLoad, c);
  if (::ws::simt::TakeTexel(texel, bytes, place)) return;
  emu::RecordAccess(c.key, c.offset, texel);
}

}  // namespace ws::prog
