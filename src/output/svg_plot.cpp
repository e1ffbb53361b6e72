// SVG line plots (svg_plot.h): data ranges, "nice" ticks, and the SVG text.

#include "output/svg_plot.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>

#include "output/markup_escape.h"
#include "pabd/world.h"

namespace pabd {
namespace {

// Margins around the plot area [px]: room for tick labels, axis labels, title.
constexpr double kLeft = 78, kRight = 20, kTop = 40, kBottom = 56;

const char* const kColours[] = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e",
                                "#9467bd", "#8c564b", "#e377c2", "#7f7f7f"};

/// A pixel coordinate with two decimals.
std::string px(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f", v);
  return buf;
}

/// An axis: data range [lo, hi], tick positions (in the same units) and labels.
struct Axis {
  double lo = 0, hi = 1;
  std::vector<double> ticks;
  std::vector<std::string> labels;
};

/// 1, 2 or 5 times a power of ten, at least `raw`.
double nice_step(double raw) {
  const double p = std::pow(10.0, std::floor(std::log10(raw)));
  for (const double m : {1.0, 2.0, 5.0})
    if (m * p >= raw * (1 - 1e-12)) return m * p;
  return 10 * p;
}

/// Linear axis over [lo, hi] with about six ticks, widened to whole steps.
Axis linear_axis(double lo, double hi) {
  if (!(hi > lo)) {
    lo -= 0.5;
    hi += 0.5;
  }
  const double step = nice_step((hi - lo) / 6);
  Axis a;
  a.lo = std::floor(lo / step + 1e-9) * step;
  a.hi = std::ceil(hi / step - 1e-9) * step;
  for (double t = a.lo; t <= a.hi + step * 1e-9; t += step) {
    const double v = std::fabs(t) < step * 1e-9 ? 0.0 : t;  // no "-1.4e-17" for zero
    char buf[32];
    std::snprintf(buf, sizeof buf, "%g", v);
    a.ticks.push_back(v);
    a.labels.emplace_back(buf);
  }
  return a;
}

/// Decade axis over log10 values [lo, hi]: whole decades, at most ten ticks.
Axis log_axis(double lo, double hi) {
  Axis a;
  a.lo = std::floor(lo);
  a.hi = std::ceil(hi);
  if (!(a.hi > a.lo)) a.hi = a.lo + 1;
  const int span = static_cast<int>(a.hi - a.lo);
  const int step = std::max(1, (span + 8) / 9);
  for (int k = static_cast<int>(a.hi); k >= static_cast<int>(a.lo); k -= step) {
    a.ticks.push_back(k);
    a.labels.push_back(k == 0 ? "1" : k == 1 ? "10" : "1e" + std::to_string(k));
  }
  return a;
}

/// The value drawn for y (log10 of the clamped value on a log axis).
double y_value(double y, const PlotOptions& o) {
  return o.log_y ? std::log10(std::max(y, o.y_floor)) : y;
}

/// NaN and infinities have no place on the axes (a log axis clamps only finite values).
bool drawable(const std::pair<double, double>& p) {
  return std::isfinite(p.first) && std::isfinite(p.second);
}

}  // namespace

std::string svg_line_plot(const std::vector<PlotSeries>& series, const PlotOptions& o) {
  // Data ranges over every drawable point.
  double x_lo = INFINITY, x_hi = -INFINITY, y_lo = INFINITY, y_hi = -INFINITY;
  for (const PlotSeries& s : series)
    for (const auto& p : s.points) {
      if (!drawable(p)) continue;
      const double y = y_value(p.second, o);
      x_lo = std::min(x_lo, p.first);
      x_hi = std::max(x_hi, p.first);
      y_lo = std::min(y_lo, y);
      y_hi = std::max(y_hi, y);
    }
  if (!(x_lo <= x_hi)) x_lo = 0, x_hi = 1;
  if (!(y_lo <= y_hi)) y_lo = 0, y_hi = 1;
  const Axis xa = linear_axis(x_lo, x_hi);
  const Axis ya = o.log_y ? log_axis(y_lo, y_hi) : linear_axis(y_lo, y_hi);

  const double w = o.width, h = o.height;
  const double pw = w - kLeft - kRight, ph = h - kTop - kBottom;
  const auto sx = [&](double x) { return kLeft + (x - xa.lo) / (xa.hi - xa.lo) * pw; };
  const auto sy = [&](double y) { return kTop + (ya.hi - y) / (ya.hi - ya.lo) * ph; };

  std::string svg;
  svg += "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"" + px(w) +
         "\" height=\"" + px(h) + "\" viewBox=\"0 0 " + px(w) + " " + px(h) +
         "\" font-family=\"sans-serif\" font-size=\"12\">\n";
  svg +=
      "<rect x=\"0\" y=\"0\" width=\"" + px(w) + "\" height=\"" + px(h) + "\" fill=\"white\"/>\n";
  svg += "<text x=\"" + px(kLeft + pw / 2) +
         "\" y=\"24\" text-anchor=\"middle\" font-size=\"15\">" + escape_markup(o.title) +
         "</text>\n";

  // Grid lines, ticks and tick labels.
  svg += "<g stroke=\"#dddddd\" stroke-width=\"1\">\n";
  for (const double t : xa.ticks)
    svg += "<line x1=\"" + px(sx(t)) + "\" y1=\"" + px(kTop) + "\" x2=\"" + px(sx(t)) + "\" y2=\"" +
           px(kTop + ph) + "\"/>\n";
  for (const double t : ya.ticks)
    svg += "<line x1=\"" + px(kLeft) + "\" y1=\"" + px(sy(t)) + "\" x2=\"" + px(kLeft + pw) +
           "\" y2=\"" + px(sy(t)) + "\"/>\n";
  svg += "</g>\n<g stroke=\"black\" stroke-width=\"1\">\n";
  for (const double t : xa.ticks)
    svg += "<line x1=\"" + px(sx(t)) + "\" y1=\"" + px(kTop + ph) + "\" x2=\"" + px(sx(t)) +
           "\" y2=\"" + px(kTop + ph + 5) + "\"/>\n";
  for (const double t : ya.ticks)
    svg += "<line x1=\"" + px(kLeft - 5) + "\" y1=\"" + px(sy(t)) + "\" x2=\"" + px(kLeft) +
           "\" y2=\"" + px(sy(t)) + "\"/>\n";
  svg += "<rect x=\"" + px(kLeft) + "\" y=\"" + px(kTop) + "\" width=\"" + px(pw) + "\" height=\"" +
         px(ph) + "\" fill=\"none\"/>\n</g>\n";
  svg += "<g text-anchor=\"middle\">\n";
  for (std::size_t i = 0; i < xa.ticks.size(); ++i)
    svg += "<text x=\"" + px(sx(xa.ticks[i])) + "\" y=\"" + px(kTop + ph + 19) + "\">" +
           escape_markup(xa.labels[i]) + "</text>\n";
  svg += "</g>\n<g text-anchor=\"end\">\n";
  for (std::size_t i = 0; i < ya.ticks.size(); ++i)
    svg += "<text x=\"" + px(kLeft - 8) + "\" y=\"" + px(sy(ya.ticks[i]) + 4) + "\">" +
           escape_markup(ya.labels[i]) + "</text>\n";
  svg += "</g>\n";

  // Axis labels.
  svg += "<text x=\"" + px(kLeft + pw / 2) + "\" y=\"" + px(h - 12) + "\" text-anchor=\"middle\">" +
         escape_markup(o.x_label) + "</text>\n";
  svg += "<text x=\"16\" y=\"" + px(kTop + ph / 2) +
         "\" text-anchor=\"middle\" transform=\"rotate(-90 16 " + px(kTop + ph / 2) + ")\">" +
         escape_markup(o.y_label) + "</text>\n";

  // The curves, clipped to the plot area.
  svg += "<clipPath id=\"plot-area\"><rect x=\"" + px(kLeft) + "\" y=\"" + px(kTop) +
         "\" width=\"" + px(pw) + "\" height=\"" + px(ph) + "\"/></clipPath>\n";
  svg += "<g clip-path=\"url(#plot-area)\" fill=\"none\" stroke-width=\"1.8\">\n";
  for (std::size_t i = 0; i < series.size(); ++i) {
    std::string points;
    for (const auto& p : series[i].points) {
      if (!drawable(p)) continue;
      const double y = y_value(p.second, o);
      if (!points.empty()) points += ' ';
      points += px(sx(p.first)) + "," + px(sy(y));
    }
    if (points.empty()) continue;
    svg += "<polyline stroke=\"" + std::string(kColours[i % std::size(kColours)]) + "\" points=\"" +
           points + "\"/>\n";
  }
  svg += "</g>\n";

  // Legend, top right inside the plot area.
  std::vector<std::size_t> listed;
  std::size_t longest = 0;
  for (std::size_t i = 0; i < series.size(); ++i)
    if (!series[i].label.empty()) {
      listed.push_back(i);
      longest = std::max(longest, series[i].label.size());
    }
  if (!listed.empty()) {
    const double lw = 44 + 7.0 * static_cast<double>(longest), lh = 8 + 18.0 * listed.size();
    const double lx = kLeft + pw - lw - 8, ly = kTop + 8;
    svg += "<g>\n<rect x=\"" + px(lx) + "\" y=\"" + px(ly) + "\" width=\"" + px(lw) +
           "\" height=\"" + px(lh) +
           "\" fill=\"white\" fill-opacity=\"0.9\" stroke=\"#999999\"/>\n";
    for (std::size_t j = 0; j < listed.size(); ++j) {
      const double cy = ly + 13 + 18.0 * static_cast<double>(j);
      svg += "<line x1=\"" + px(lx + 8) + "\" y1=\"" + px(cy) + "\" x2=\"" + px(lx + 32) +
             "\" y2=\"" + px(cy) + "\" stroke=\"" + kColours[listed[j] % std::size(kColours)] +
             "\" stroke-width=\"1.8\"/>\n";
      svg += "<text x=\"" + px(lx + 38) + "\" y=\"" + px(cy + 4) + "\">" +
             escape_markup(series[listed[j]].label) + "</text>\n";
    }
    svg += "</g>\n";
  }
  svg += "</svg>\n";
  return svg;
}

void write_svg_line_plot(const std::string& path, const std::vector<PlotSeries>& series,
                         const PlotOptions& options) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) throw Error(path + ": cannot open for writing (" + std::strerror(errno) + ")");
  out << svg_line_plot(series, options);
  if (!out.flush()) throw Error(path + ": write failed");
}

}  // namespace pabd
