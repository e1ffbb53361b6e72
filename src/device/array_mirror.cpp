// Device copies of the arrays behind a step's views (see array_mirror.h).
#include "device/array_mirror.h"

#include "pabd/world.h"

namespace pabd {

namespace {

/// Whether an array mapped with `copy` comes back after the pass: a
/// non-const view's, unless it only goes up or nowhere.
bool brought_back(bool writable, ArrayMirror::Copy copy) {
  return writable && (copy == ArrayMirror::Copy::Both || copy == ArrayMirror::Copy::Out ||
                      copy == ArrayMirror::Copy::Kept);
}

}  // namespace

ArrayMirror::~ArrayMirror() {
  for (Slot& s : slots_)
    if (s.device) memory_.release(s.device);
}

void ArrayMirror::begin_pass(std::uint64_t model_version, std::uint64_t state_version) {
  next_ = 0;
  ++pass_;
  model_version_ = model_version;
  state_version_ = state_version;
}

void* ArrayMirror::map_bytes(const void* host, std::size_t bytes, bool writable, Copy copy,
                             std::uint64_t model_version) {
  if (next_ == slots_.size()) slots_.emplace_back();
  Slot& slot = slots_[next_++];
  slot.host = nullptr;
  if (!host || bytes == 0) return nullptr;
  // An array an earlier view of this pass already mapped: the same buffer.
  for (std::size_t i = 0; i + 1 < next_; ++i) {
    Slot& other = slots_[i];
    if (other.host != host) continue;
    if (other.bytes < bytes)
      throw Error(
          "device mirror: an array mapped twice in one pass with a larger size the second time");
    other.writable = other.writable || brought_back(writable, copy);
    return other.device;
  }
  if (bytes > slot.capacity) {
    slot.model_held = false;  // a new buffer
    if (slot.device) {
      memory_.release(slot.device);
      held_ -= slot.capacity;
    }
    slot.device = nullptr;
    slot.capacity = 0;
    const std::size_t capacity = 2 * bytes;
    slot.device = memory_.allocate(capacity);
    slot.capacity = capacity;
    held_ += capacity;
    if (held_ > peak_) peak_ = held_;
  }
  slot.host = host;
  slot.bytes = bytes;
  slot.writable = brought_back(writable, copy);
  slot.kept = copy == Copy::Kept;
  if (copy == Copy::Model || copy == Copy::Kept) {
    const bool held = model_version != kUnversioned && slot.model_held && slot.model_host == host &&
                      slot.model_bytes == bytes && slot.model_version == model_version &&
                      (copy == Copy::Model || slot.kept_pass + 1 == pass_);
    if (!held) memory_.upload(slot.device, host, bytes);
    // Kept state is held only once the pass brought it back (the loops may
    // write it meanwhile): a pass that ends before uploads it again.
    slot.model_held = copy == Copy::Model;
    slot.model_host = host;
    slot.model_bytes = bytes;
    slot.model_version = model_version;
    return slot.device;
  }
  slot.model_held = false;
  if (copy == Copy::Both || copy == Copy::In)
    memory_.upload(slot.device, host, bytes);
  else
    memory_.scribble(slot.device, bytes);
  return slot.device;
}

void ArrayMirror::download_writable() {
  for (std::size_t i = 0; i < next_; ++i) {
    Slot& s = slots_[i];
    if (!s.host || !s.writable) continue;
    memory_.download(const_cast<void*>(s.host), s.device, s.bytes);
    // Host and device agree now, until the host writes (a new state version).
    if (s.kept && s.model_host == s.host && s.model_bytes == s.bytes) {
      s.model_held = true;
      s.kept_pass = pass_;
    }
  }
}

}  // namespace pabd
