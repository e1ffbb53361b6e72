// Device copies of the arrays behind a step's views (model/*_arrays.h): each
// host array a view points to gets a device buffer, uploaded before the
// device's loops, and the view's pointer is swapped for the buffer's. The
// writable ones (non-const in the view: state, multipliers) come back with
// download_writable(). What the loops write before they read it goes only
// one way or neither: back, when the host reads it after the step (Copy::Out),
// or nowhere, a step's scratch (Copy::None); what no loop writes only goes up
// (Copy::In), and the bodies' model only after it changed (Copy::Model).
//
// A pass maps the same arrays in the same order every step (view_mirror.h),
// so each call takes the next slot and keeps its buffer from step to step,
// grown to twice the asked size when it outgrows it (like the host's
// core/scratch_array.h): after the first steps nothing is allocated.
// Two views may share an array (ContactEnds::weight is
// ContactArrays::pair_weight; the detection's poses are the bodies'): the
// second mapping of a host pointer in a pass gets the first one's buffer, so
// the kernels see one array, uploaded as the first mapping said; a later
// writable mapping still brings it back.
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "device/device_memory.h"

namespace pabd {

class ArrayMirror {
 public:
  explicit ArrayMirror(DeviceMemory& memory) : memory_(memory) {}
  ~ArrayMirror();
  ArrayMirror(const ArrayMirror&) = delete;
  ArrayMirror& operator=(const ArrayMirror&) = delete;

  /// What travels between the host array and its device copy.
  enum class Copy {
    Both,  ///< uploaded; brought back too where the view may write it
    /// Uploaded, never brought back: no device loop writes it, though the
    /// view may (none of the step's views has such an array today).
    In,
    /// Brought back, never uploaded: the device's loops write every element
    /// before any is read (the start-of-step pose, written by predict), and
    /// the host reads it after the pass (its device copy is scribbled on).
    Out,
    None,  ///< the step's scratch: neither (its device copy is scribbled on)
    /// The bodies' model: uploaded when the slot last held another array or
    /// size, or the pass's model version changed since (begin_pass), never
    /// brought back; no device loop writes it.
    Model,
    /// State the device keeps between passes (poses, velocities, the bonds'
    /// multipliers): brought back after every pass like Both, and uploaded
    /// unless the same slot brought it back in the pass just before and the
    /// pass's state version (begin_pass: the host wrote it) did not change
    /// since. (A slot that skipped passes may hold it from before another
    /// slot's loops moved it on.)
    Kept
  };

  /// A pass whose Copy::Model arrays are all uploaded (no version to go by).
  static constexpr std::uint64_t kUnversioned = ~std::uint64_t(0);
  /// Starts a pass: the next map() takes the first slot. `model_version`
  /// (StepContext::model_version) tells whether Copy::Model arrays changed,
  /// `state_version` (StepContext::state_version) whether the host wrote
  /// Copy::Kept ones since the last pass brought them back.
  void begin_pass(std::uint64_t model_version = kUnversioned,
                  std::uint64_t state_version = kUnversioned);
  /// Points `pointer` at a device copy of its `count` elements, copied as
  /// `copy` says; a null pointer or no elements map to null (the slot is
  /// kept).
  template <typename T>
  void map(T*& pointer, std::size_t count, Copy copy = Copy::Both) {
    const std::uint64_t version = copy == Copy::Kept ? state_version_ : model_version_;
    void* device = map_bytes(pointer, count * sizeof(T), !std::is_const_v<T>, copy, version);
    pointer = static_cast<T*>(device);
  }
  /// map(pointer, count, Copy::Model) for an array that changes with a
  /// version of its own, not the pass's model version (the contact
  /// topology's rebuilds, the joints' limits and drives, a bond colouring's
  /// builds): uploaded when `version` differs from the one its slot last
  /// held, and always under kUnversioned.
  template <typename T>
  void map_model(T*& pointer, std::size_t count, std::uint64_t version) {
    void* device = map_bytes(pointer, count * sizeof(T), !std::is_const_v<T>, Copy::Model, version);
    pointer = static_cast<T*>(device);
  }
  /// Copies every writable array of this pass back to its host array.
  void download_writable();
  /// Device memory held now and at most so far [bytes].
  std::size_t bytes_held() const { return held_; }
  std::size_t peak_bytes() const { return peak_; }

 private:
  struct Slot {
    void* device = nullptr;
    std::size_t capacity = 0;
    const void* host = nullptr;  ///< this pass's host array (null: unused)
    std::size_t bytes = 0;
    bool writable = false;  ///< brought back by download_writable()
    // What the buffer holds since its last Copy::Model upload (or Copy::Kept
    // download), while no other mapping of the slot wrote it.
    bool model_held = false;
    bool kept = false;            ///< mapped Copy::Kept in this pass: held once brought back
    std::uint64_t kept_pass = 0;  ///< the pass that last brought its Kept array back
    const void* model_host = nullptr;
    std::size_t model_bytes = 0;
    std::uint64_t model_version = 0;
  };
  void* map_bytes(const void* host, std::size_t bytes, bool writable, Copy copy,
                  std::uint64_t model_version);

  DeviceMemory& memory_;
  std::vector<Slot> slots_;
  std::size_t next_ = 0;
  std::uint64_t model_version_ = 0;  ///< this pass's
  std::uint64_t state_version_ = 0;  ///< this pass's
  std::uint64_t pass_ = 0;           ///< passes begun
  std::size_t held_ = 0, peak_ = 0;
};

}  // namespace pabd
