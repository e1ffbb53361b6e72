// Escaping text for HTML and XML (SVG) alike: element content and quoted
// attribute values.
#pragma once

#include <string>

namespace pabd {

/// s with & < > " ' replaced by entities understood by both HTML and XML.
inline std::string escape_markup(const std::string& s) {
  std::string out;
  out.reserve(s.size());
  for (const char c : s) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&#39;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

}  // namespace pabd
