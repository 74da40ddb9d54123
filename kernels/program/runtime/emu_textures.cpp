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
};

namespace {

struct Texture {
  const unsigned char* base = nullptr;
  std::size_t width = 0, height = 0, pitch = 0;  // texels, rows; bytes a row
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

void TexFetch(unsigned long long object, int dims, float x, float y, unsigned int place, void* out,
              unsigned int bytes, bool floating) {
  Texture t;
  {
    std::lock_guard lock(g_mutex);
    if (object == 0 || object > g_textures.size() || !g_textures[object - 1].live) {
      if (::ws::emu::t_thread == nullptr) return;
      emu::FailThread(place & 0xffffu, "a texture fetch through " + std::to_string(object) +
                                           ", which is no live texture object");
    }
    t = g_textures[object - 1];
  }
  const bool normalize = t.how.readMode == cudaReadModeNormalizedFloat &&
                         t.desc.f != cudaChannelFormatKindFloat && floating;
  auto texel_at = [&](long long i, long long j) -> const unsigned char* {
    if (i < 0 || j < 0) return nullptr;
    return t.base + static_cast<std::size_t>(j) * t.pitch + static_cast<std::size_t>(i) * t.texel;
  };
  const unsigned char* first = nullptr;
  float value[4] = {0, 0, 0, 0};
  if (dims == 0) {  // tex1Dfetch: an index, no filtering; outside the texture reads 0
    const auto i = static_cast<long long>(x);
    if (i >= 0 && static_cast<std::size_t>(i) < t.width) first = texel_at(i, 0);
  } else {
    float u = x, v = dims == 2 ? y : 0.5f;
    if (t.how.normalizedCoords != 0) {
      u *= static_cast<float>(t.width);
      if (dims == 2) v *= static_cast<float>(t.height);
    }
    const std::size_t h = dims == 2 ? t.height : 1;
    if (t.how.filterMode == cudaFilterModeLinear && floating) {
      // The four texels around (u - 0.5, v - 0.5), weighted by the fractions (9-bit in hardware;
      // exact here).
      const float fu = u - 0.5f, fv = v - 0.5f;
      const auto i0 = static_cast<long long>(std::floor(fu)),
                 j0 = static_cast<long long>(std::floor(fv));
      const float a = fu - static_cast<float>(i0), b = fv - static_cast<float>(j0);
      for (int dj = 0; dj < (dims == 2 ? 2 : 1); ++dj) {
        for (int di = 0; di < 2; ++di) {
          const long long i = Address(i0 + di, t.width, t.how.addressMode[0]);
          const long long j = dims == 2 ? Address(j0 + dj, h, t.how.addressMode[1]) : 0;
          const unsigned char* p = texel_at(i, j);
          if (first == nullptr && p != nullptr) first = p;
          if (p == nullptr) continue;
          float c[4];
          Components(t, p, normalize, c);
          const float w = (di ? a : 1.0f - a) * (dims == 2 ? (dj ? b : 1.0f - b) : 1.0f);
          for (int k = 0; k < 4; ++k) value[k] += w * c[k];
        }
      }
    } else {
      const long long i =
          Address(static_cast<long long>(std::floor(u)), t.width, t.how.addressMode[0]);
      const long long j =
          dims == 2 ? Address(static_cast<long long>(std::floor(v)), h, t.how.addressMode[1]) : 0;
      first = texel_at(i, j);
    }
  }
  if (first != nullptr) RecordTexture(first, static_cast<unsigned int>(t.texel), place);
  if (first == nullptr) {
    std::memset(out, 0, bytes);  // outside a border-addressed texture: the border, 0
    return;
  }
  if (floating && (normalize || (t.how.filterMode == cudaFilterModeLinear && dims != 0))) {
    if (t.how.filterMode != cudaFilterModeLinear || dims == 0)
      Components(t, first, normalize, value);
    std::memcpy(out, value, std::min<std::size_t>(bytes, sizeof value));
    return;
  }
  std::memcpy(out, first, std::min<std::size_t>(bytes, t.texel));
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
