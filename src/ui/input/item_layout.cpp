#include "item_layout.h"

#include <imgui_internal.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <utility>

namespace ui::input {
namespace {

struct Recorded {
  Item item;
  bool known = false;  // ImGui or a hint said what it is (else: a scrollbar, a child window…)
};

struct Hint {
  bool set = false;
  const ImGuiWindow* window = nullptr;  // the window the hinted item is drawn in
  ItemKind kind = ItemKind::button;
  std::string label;
  bool grabs = false, zooms = false;
};

// Two lists, swapped at the end of a frame, so their strings' storage is reused frame after
// frame: recording costs no allocation once the screen's items have been seen.
std::vector<Recorded> g_building;
std::size_t g_count = 0;
std::vector<Item> g_last;
Hint g_hint;

std::string_view visible(const char* label) {
  if (!label) return {};
  const char* end = std::strstr(label, "##");
  return end ? std::string_view(label, std::size_t(end - label)) : std::string_view(label);
}

Recorded* find(ImGuiID id) {
  for (std::size_t i = g_count; i-- > 0;)
    if (g_building[i].item.id == id) return &g_building[i];
  return nullptr;
}

}  // namespace

const char* item_kind_name(ItemKind kind) {
  switch (kind) {
    case ItemKind::button: return "button";
    case ItemKind::checkbox: return "checkbox";
    case ItemKind::radio: return "radio";
    case ItemKind::combo: return "combo";
    case ItemKind::slider: return "slider";
    case ItemKind::drag: return "drag";
    case ItemKind::input: return "input";
    case ItemKind::text: return "text";
    case ItemKind::heatmap: return "heatmap";
    case ItemKind::plot: return "plot";
    case ItemKind::menu: return "menu";
    case ItemKind::header: return "header";
    case ItemKind::tooltip: return "tooltip";
    case ItemKind::label: return "label";
  }
  return "button";
}

void next_item(ItemKind kind, std::string_view label, bool grabs, bool zooms) {
  // A window that skips its items (scrolled out of view, collapsed) draws no item to hint.
  const ImGuiWindow* window = ImGui::GetCurrentContext()->CurrentWindow;
  if (!window || window->SkipItems) return;
  g_hint.window = window;
  g_hint.set = true;
  g_hint.kind = kind;
  g_hint.label.assign(label);
  g_hint.grabs = grabs;
  g_hint.zooms = zooms;
}

void describe_heatmap(ImGuiID id, float value_em, const std::vector<std::string>& row_labels,
                      const std::vector<std::string>& col_labels, const std::vector<std::string>& legend) {
  Recorded* r = find(id);
  if (!r) return;  // out of view
  r->item.value_em = value_em;
  r->item.row_labels = row_labels;
  r->item.col_labels = col_labels;
  r->item.legend = legend;
}

void describe_plot(ImGuiID id, const std::vector<std::string>& x_ticks, const std::vector<std::string>& y_ticks) {
  Recorded* r = find(id);
  if (!r) return;  // out of view
  r->item.col_labels = x_ticks;
  r->item.row_labels = y_ticks;
}

void describe_label(std::string_view text, ImVec2 min, ImVec2 max) {
  const ImGuiWindow* window = ImGui::GetCurrentWindow();
  if (!window->ClipRect.Overlaps(ImRect(min, max))) return;  // out of view
  if (g_count == g_building.size()) g_building.emplace_back();
  Recorded& r = g_building[g_count++];
  r.known = true;
  r.item = Item{};
  r.item.kind = ItemKind::label;
  r.item.label.assign(text);
  r.item.min = min;
  r.item.max = max;
  r.item.shown_min = ImMax(min, window->ClipRect.Min);
  r.item.shown_max = ImMin(max, window->ClipRect.Max);
}

void describe_grab_spots(ImGuiID id, std::vector<ImVec2> spots, float reach) {
  Recorded* r = find(id);
  if (!r) return;  // out of view
  r->item.grab_spots = std::move(spots);
  r->item.grab_reach = reach;
}

bool Item::spot_at(ImVec2 p) const {
  for (const ImVec2& s : grab_spots)
    if (std::hypot(p.x - s.x, p.y - s.y) <= grab_reach) return true;
  return false;
}

void begin_frame() {
  g_count = 0;
  g_hint.set = false;
  ImGui::GetCurrentContext()->TestEngineHookItems = true;
}

void end_frame() {
  // Assigned over last frame's items, not rebuilt: their strings keep their storage.
  std::size_t n = 0;
  for (std::size_t i = 0; i < g_count; ++i) {
    if (!g_building[i].known) continue;
    if (n == g_last.size()) g_last.emplace_back();
    g_last[n++] = g_building[i].item;
  }
  // The tooltips this frame shows, after the items (item_at finds the controls under them).
  for (const ImGuiWindow* w : ImGui::GetCurrentContext()->Windows) {
    if (!(w->Flags & ImGuiWindowFlags_Tooltip) || !w->Active || w->Hidden) continue;
    if (n == g_last.size()) g_last.emplace_back();
    Item& t = g_last[n++];
    t = Item{};
    t.kind = ItemKind::tooltip;
    t.min = t.shown_min = w->Pos;
    t.max = t.shown_max = ImVec2(w->Pos.x + w->Size.x, w->Pos.y + w->Size.y);
  }
  g_last.resize(n);
}

const std::vector<Item>& last_frame_items() { return g_last; }

const Item* item_at(ImVec2 p) {
  for (auto it = g_last.rbegin(); it != g_last.rend(); ++it)
    if (it->kind != ItemKind::tooltip && it->kind != ItemKind::label && p.x >= it->shown_min.x && p.x < it->shown_max.x && p.y >= it->shown_min.y && p.y < it->shown_max.y) return &*it;
  return nullptr;
}

}  // namespace ui::input

using ui::input::ItemKind;

// [SECTION] Dear ImGui's test-engine hooks (imgui_internal.h)
// Every item with an id, as ImGui adds it, where its window shows it. (A popup's first frame
// is laid out hidden, at a place it has not reached yet: its items count from the next.)
void ImGuiTestEngineHook_ItemAdd(ImGuiContext* ctx, const ImRect& bb, ImGuiID id) {
  using namespace ui::input;
  const ImGuiWindow* window = ctx->CurrentWindow;
  Hint hint = std::exchange(g_hint, Hint{});
  if (hint.window != window) hint = Hint{};  // for an item that was never added
  if (!window || window->Hidden || !window->ClipRect.Overlaps(bb)) return;
  const ImRect& clip = window->ClipRect;
  // An item added again under its own id (a multi-line text field, whose frame EndChild adds
  // once more) stays the one item its hint described: otherwise the later, unhinted copy is
  // what item_at finds, and the phone's keyboard opens for a number.
  if (Recorded* again = id != 0 && !hint.set ? find(id) : nullptr) {
    again->item.min = ImMin(again->item.min, bb.Min);
    again->item.max = ImMax(again->item.max, bb.Max);
    again->item.shown_min = ImMax(again->item.min, clip.Min);
    again->item.shown_max = ImMin(again->item.max, clip.Max);
    return;
  }
  if (g_count == g_building.size()) g_building.emplace_back();
  Recorded& r = g_building[g_count++];
  r.item.id = id;
  r.known = hint.set;
  r.item.kind = hint.kind;
  r.item.label = hint.label;
  r.item.grabs = hint.grabs || hint.kind == ItemKind::slider || hint.kind == ItemKind::drag;
  r.item.zooms = hint.zooms;
  r.item.value_em = 0;
  r.item.row_labels.clear();
  r.item.col_labels.clear();
  r.item.legend.clear();
  r.item.grab_spots.clear();
  r.item.min = bb.Min;
  r.item.max = bb.Max;
  r.item.shown_min = ImMax(bb.Min, clip.Min);
  r.item.shown_max = ImMin(bb.Max, clip.Max);
}

// Its label and what ImGui says of it, for the items that have one.
void ImGuiTestEngineHook_ItemInfo(ImGuiContext* ctx, ImGuiID id, const char* label, ImGuiItemStatusFlags flags) {
  using namespace ui::input;
  Recorded* r = find(id);
  if (!r) return;
  // The whole item, its label beside the frame included (ItemAdd had the frame alone).
  r->item.min = ImMin(r->item.min, ctx->LastItemData.Rect.Min);
  r->item.max = ImMax(r->item.max, ctx->LastItemData.Rect.Max);
  if (r->item.label.empty()) r->item.label.assign(visible(label));
  if (r->known) return;  // a hint said what it is
  r->known = true;
  const ImGuiWindow* window = ctx->CurrentWindow;
  const bool in_popup = window && (window->Flags & (ImGuiWindowFlags_Popup | ImGuiWindowFlags_ChildMenu));
  ItemKind kind = ItemKind::button;
  if (in_popup) kind = ItemKind::menu;
  else if (flags & ImGuiItemStatusFlags_Openable) kind = ItemKind::header;
  else if (flags & ImGuiItemStatusFlags_Checkable) kind = ItemKind::checkbox;
  else if (ctx->LastItemData.InFlags & ImGuiItemFlags_Inputable) kind = ItemKind::slider;
  r->item.kind = kind;
  r->item.grabs = kind == ItemKind::slider;
}

void ImGuiTestEngineHook_Log(ImGuiContext*, const char*, ...) {}
const char* ImGuiTestEngine_FindItemDebugLabel(ImGuiContext*, ImGuiID) { return nullptr; }
