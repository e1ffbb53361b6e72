// A small line-plot writer: series of (x, y) points drawn as SVG 1.1 polylines
// with axes, ticks, axis labels, a title and a legend. Plain text, no libraries.
// Used by `pabd converge` (relative error per iteration, log y) and reusable for
// any other curve the tools want to show.
//
//   pabd::PlotOptions opt;
//   opt.title = "spring_pair.json, step 1";
//   opt.log_y = true;
//   std::string svg = pabd::svg_line_plot({{"pabd", {{0, 1}, {1, 0.1}}}}, opt);
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace pabd {

/// One curve: a legend label and its points in drawing order.
struct PlotSeries {
  std::string label;                              ///< legend text (empty: not in the legend)
  std::vector<std::pair<double, double>> points;  ///< (x, y); non-finite points are skipped
};

/// Layout and axes of a plot.
struct PlotOptions {
  std::string title;       ///< drawn above the plot area
  std::string x_label;     ///< below the x axis
  std::string y_label;     ///< left of the y axis, turned 90 degrees
  bool log_y = false;      ///< y axis in decades: y is drawn at log10(max(y, y_floor))
  double y_floor = 1e-16;  ///< log_y: smaller (and non-positive) y values are clamped here
  int width = 720;         ///< whole picture [px]
  int height = 480;        ///< whole picture [px]
};

/// The plot as SVG 1.1 text (one <polyline> per series with at least one point,
/// whose points attribute holds one "x,y" pair per drawn point).
std::string svg_line_plot(const std::vector<PlotSeries>& series, const PlotOptions& options);

/// Writes svg_line_plot(series, options) to `path`; throws pabd::Error with a
/// one-line message when the file cannot be written.
void write_svg_line_plot(const std::string& path, const std::vector<PlotSeries>& series,
                         const PlotOptions& options);

}  // namespace pabd
