// Messages: the newest one near the top for a few seconds (errors in red), and the message log
// window with every message of the session, its time and copyable text.
#include <imgui.h>

#include "app/window/panels/panel_util.h"

namespace app {

namespace {

ImVec4 LevelColor(MessageLevel level) {
  switch (level) {
    case MessageLevel::kError:
      return ToneColor(Tone::kError);
    case MessageLevel::kWarning:
      return ToneColor(Tone::kWarning);
    case MessageLevel::kNote:
      break;
  }
  return ToneColor(Tone::kNote);
}

}  // namespace

void DrawMessage(const MessageLog& log) {
  const LogEntry* entry = log.last();
  if (!entry || log.open || MillisecondsSince(entry->arrived) > 8000.0) return;
  const ImGuiIO& io = ImGui::GetIO();
  ImGui::SetNextWindowPos(ImVec2(io.DisplaySize.x * 0.5f + 180.0f, 24.0f), ImGuiCond_Always,
                          ImVec2(0.5f, 0.0f));
  ImGui::SetNextWindowBgAlpha(0.85f);
  ImGui::Begin("##message", nullptr,
               ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_AlwaysAutoResize |
                   ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoFocusOnAppearing |
                   ImGuiWindowFlags_NoNav | ImGuiWindowFlags_NoInputs);
  ImGui::PushTextWrapPos(560.0f);
  ImGui::TextColored(LevelColor(entry->level), "%s", entry->text.c_str());
  ImGui::PopTextWrapPos();
  ImGui::End();
}

void DrawMessageLog(MessageLog* log) {
  if (!log->open) return;
  log->MarkSeen();
  const ImGuiIO& io = ImGui::GetIO();
  ImGui::SetNextWindowPos(ImVec2(io.DisplaySize.x - 10.0f, io.DisplaySize.y * 0.5f),
                          ImGuiCond_FirstUseEver, ImVec2(1.0f, 0.5f));
  ImGui::SetNextWindowSize(
      ImVec2(std::min(560.0f, io.DisplaySize.x * 0.6f), std::min(320.0f, io.DisplaySize.y * 0.6f)),
      ImGuiCond_FirstUseEver);
  if (!ImGui::Begin(kMessageLogName, &log->open, ImGuiWindowFlags_NoCollapse)) {
    ImGui::End();
    return;
  }
  if (ImGui::Button("Copy all")) ImGui::SetClipboardText(log->Text().c_str());
  Tip("Copy every message, with its time, to the clipboard.");
  ImGui::SameLine();
  if (ImGui::Button("Clear")) log->Clear();
  Tip("Forget the messages so far.");
  ImGui::SameLine();
  const size_t count = log->entries().size();
  ImGui::TextDisabled(
      count == 1 ? "%zu message; click it to copy it" : "%zu messages; click one to copy it",
      count);
  ImGui::BeginChild("entries", ImVec2(0.0f, 0.0f), true);
  ImGui::PushTextWrapPos(0.0f);  // long messages (a file's path and reason) wrap
  for (const LogEntry& entry : log->entries()) {
    const std::string line = MessageLog::Line(entry);
    ImGui::TextColored(LevelColor(entry.level), "%s", line.c_str());
    if (ImGui::IsItemHovered()) {
      ImGui::GetWindowDrawList()->AddRect(ImGui::GetItemRectMin(), ImGui::GetItemRectMax(),
                                          ImGui::GetColorU32(ImGuiCol_Border));
    }
    if (ImGui::IsItemClicked()) ImGui::SetClipboardText(line.c_str());
    Tip("Click to copy this message.");
  }
  ImGui::PopTextWrapPos();
  // Stay at the newest message unless the user scrolled up to read.
  if (ImGui::GetScrollY() >= ImGui::GetScrollMaxY() - 1.0f) ImGui::SetScrollHereY(1.0f);
  ImGui::EndChild();
  ImGui::End();
}

}  // namespace app
