// Charts as inline SVG for the HTML report (apps/html_report.h): stacked horizontal bars,
// cumulative distributions, heat maps and lines over time. Each chart is one <svg class="plot"> element that
// needs no script, no style sheet and no font beyond the browser's own, so a page holding
// them opens anywhere, offline. Values are plain doubles; the caller chooses the unit and
// passes its name for the axis.
#pragma once

#include <string>
#include <vector>

namespace uniference {

// One series of a stacked bar chart: its name (in the legend) and fill colour ("#4e79a7").
struct BarSeries {
  std::string name;
  std::string colour;
};

// One bar per row, its segments in series order; values[row][series] >= 0, in `unit`.
std::string stacked_bars(const std::string& title, const std::vector<std::string>& rows,
                         const std::vector<BarSeries>& series,
                         const std::vector<std::vector<double>>& values, const std::string& unit);

// A sample's empirical distribution: a step from 0 to 1 over its sorted values.
struct CdfLine {
  std::string name;
  std::string colour;
  std::vector<double> values;
};

// A vertical line across the plot at x (a target, a model's prediction), dashed, labelled.
struct Marker {
  std::string name;
  std::string colour;
  double x;
};

std::string cdf_plot(const std::string& title, const std::vector<CdfLine>& lines,
                     const std::vector<Marker>& markers, const std::string& unit);

// Rows of cells over time: cells[row][column] in [0, 1] (shaded from white to dark), column c
// covering [c * step, (c + 1) * step) in `unit`.
std::string heat_map(const std::string& title, const std::vector<std::string>& rows,
                     const std::vector<std::vector<double>>& cells, double step, const std::string& unit);

// A quantity over time: (time, value) points in time order. With `steps`, each value holds
// until the next point (a rate that changes at instants); without, points are joined.
struct TimeLine {
  std::string name;
  std::string colour;
  std::vector<std::pair<double, double>> points;
  bool steps = false;
};

// Lines over time [0, span] in `time_unit`, values from 0 in `value_unit`; `shaded` windows
// [from, to) (in time_unit: a link's outages) are grey bands, named `shaded_name` in the legend.
std::string time_plot(const std::string& title, const std::vector<TimeLine>& lines, double span,
                      const std::string& time_unit, const std::string& value_unit,
                      const std::vector<std::pair<double, double>>& shaded = {},
                      const std::string& shaded_name = "");

// Points of two quantities (a plan's throughput and latency): each a dot of its colour, with
// its name in a tooltip and, when `labelled`, beside it; `front` (x, y) points are joined by a
// dashed line (a Pareto front). `legend` names the colours.
struct ScatterPoint {
  double x = 0, y = 0;
  std::string name;
  std::string colour;
  bool labelled = false;
};
std::string scatter_plot(const std::string& title, const std::vector<ScatterPoint>& points,
                         const std::vector<std::pair<double, double>>& front, const std::string& x_unit,
                         const std::string& y_unit,
                         const std::vector<std::pair<std::string, std::string>>& legend_entries);

// Text safe inside HTML and SVG elements and attribute values.
std::string escape_markup(const std::string& text);

// A round step for an axis of about `ticks` divisions over [0, span]: 1, 2 or 5 times a
// power of ten.
double axis_step(double span, int ticks);

}  // namespace uniference
