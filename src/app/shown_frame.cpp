#include "shown_frame.h"

#include <cstring>

namespace {

template <class T>
void append(std::vector<unsigned char>& out, const T* data, std::size_t count) {
  const auto* bytes = reinterpret_cast<const unsigned char*>(data);
  out.insert(out.end(), bytes, bytes + count * sizeof(T));
}

}  // namespace

// Compared byte for byte against a copy of the last frame shown rather than by a hash: a
// collision would leave a changed picture off the screen until the next change.
bool ShownFrame::differs(const ImDrawData& data, int fb_w, int fb_h, const ImVec4& clear, std::uint64_t painted) {
  drawing_.clear();
  const int size[] = {fb_w, fb_h};
  append(drawing_, size, 2);
  append(drawing_, &clear, 1);
  append(drawing_, &painted, 1);
  append(drawing_, &data.DisplayPos, 1);
  append(drawing_, &data.DisplaySize, 1);
  append(drawing_, &data.FramebufferScale, 1);
  for (int i = 0; i < data.CmdListsCount; ++i) {
    const ImDrawList& list = *data.CmdLists[i];
    const int sizes[] = {list.CmdBuffer.Size, list.IdxBuffer.Size, list.VtxBuffer.Size};
    append(drawing_, sizes, 3);
    for (const ImDrawCmd& cmd : list.CmdBuffer) {
      append(drawing_, &cmd.ClipRect, 1);
      append(drawing_, &cmd.TextureId, 1);
      const unsigned int offsets[] = {cmd.VtxOffset, cmd.IdxOffset, cmd.ElemCount};
      append(drawing_, offsets, 3);
      append(drawing_, &cmd.UserCallback, 1);
    }
    append(drawing_, list.IdxBuffer.Data, std::size_t(list.IdxBuffer.Size));
    append(drawing_, list.VtxBuffer.Data, std::size_t(list.VtxBuffer.Size));
  }
  if (drawing_.size() == shown_.size() && std::memcmp(drawing_.data(), shown_.data(), shown_.size()) == 0) return false;
  shown_.swap(drawing_);
  return true;
}
