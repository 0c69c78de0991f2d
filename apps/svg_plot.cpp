#include "apps/svg_plot.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace uniference {

namespace {

constexpr double kWidth = 760;
constexpr double kRight = 20;
constexpr double kTop = 34;        // the title's band
constexpr double kAxisBand = 40;   // tick labels and the unit under the plot area
constexpr double kLegendRow = 18;
constexpr double kCharWidth = 6.6; // of the browser's 11 px sans-serif, near enough for margins

std::string number(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.6g", value);
  return text;
}

// Coordinates with one decimal: enough for a screen, and the page stays small.
std::string coordinate(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f", value);
  return text;
}

// The left margin that fits the longest row label.
double label_margin(const std::vector<std::string>& labels) {
  size_t longest = 0;
  for (const std::string& label : labels) longest = std::max(longest, label.size());
  return std::clamp(16 + kCharWidth * double(longest), 60.0, 300.0);
}

// The frame of a chart with one row per label: its plot area and the whole image's height.
struct RowFrame {
  double left, right, bottom, height;
};

RowFrame row_frame(const std::vector<std::string>& rows, double row_height) {
  const double bottom = kTop + row_height * double(rows.size());
  return {label_margin(rows), kWidth - kRight, bottom, bottom + kAxisBand + kLegendRow + 8};
}

// An axis's end: the largest value rounded up to a whole tick (1 for an empty plot).
double axis_end(double largest) {
  if (!(largest > 0)) return 1;
  const double step = axis_step(largest, 6);
  return std::ceil(largest / step) * step;
}

std::string open_svg(double height, const std::string& title) {
  return "<svg class=\"plot\" xmlns=\"http://www.w3.org/2000/svg\" width=\"" + number(kWidth) +
         "\" height=\"" + coordinate(height) + "\" viewBox=\"0 0 " + number(kWidth) + " " +
         coordinate(height) + "\" font-family=\"sans-serif\" font-size=\"11\" role=\"img\">" +
         "<title>" + escape_markup(title) + "</title><text x=\"" + number(kWidth / 2) +
         "\" y=\"20\" text-anchor=\"middle\" font-size=\"14\" font-weight=\"bold\">" +
         escape_markup(title) + "</text>";
}

std::string text_at(double x, double y, const std::string& anchor, const std::string& text) {
  return "<text x=\"" + coordinate(x) + "\" y=\"" + coordinate(y) + "\" text-anchor=\"" + anchor +
         "\">" + escape_markup(text) + "</text>";
}

std::string line(double x1, double y1, double x2, double y2, const std::string& colour,
                 const std::string& extra = "") {
  return "<line x1=\"" + coordinate(x1) + "\" y1=\"" + coordinate(y1) + "\" x2=\"" +
         coordinate(x2) + "\" y2=\"" + coordinate(y2) + "\" stroke=\"" + colour + "\"" + extra +
         "/>";
}

// The x axis under a plot area from `left` to `right` at `bottom`, 0 to `span`, with its unit.
std::string x_axis(double left, double right, double bottom, double top, double span,
                   const std::string& unit) {
  std::string out = line(left, bottom, right, bottom, "#333");
  const double step = axis_step(span, 6);
  for (double tick = 0; tick <= span * (1 + 1e-9); tick += step) {
    const double x = left + (right - left) * tick / span;
    out += line(x, top, x, bottom, "#ddd") + line(x, bottom, x, bottom + 4, "#333") +
           text_at(x, bottom + 15, "middle", number(tick));
  }
  return out + text_at((left + right) / 2, bottom + 30, "middle", unit);
}

std::string legend(double y, const std::vector<std::pair<std::string, std::string>>& entries) {
  std::string out;
  double x = 20;
  for (const auto& [name, colour] : entries) {
    out += "<rect x=\"" + coordinate(x) + "\" y=\"" + coordinate(y - 9) +
           "\" width=\"10\" height=\"10\" fill=\"" + colour + "\"/>" +
           text_at(x + 14, y, "start", name);
    x += 30 + kCharWidth * double(name.size());
  }
  return out;
}

}  // namespace

std::string escape_markup(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  for (const char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&#39;"; break;
      default: out += c;
    }
  }
  return out;
}

double axis_step(double span, int ticks) {
  if (!(span > 0) || !std::isfinite(span)) return 1;
  const double rough = span / std::max(ticks, 1);
  const double power = std::pow(10.0, std::floor(std::log10(rough)));
  for (const double multiple : {1.0, 2.0, 5.0}) {
    if (multiple * power >= rough) return multiple * power;
  }
  return 10 * power;
}

std::string stacked_bars(const std::string& title, const std::vector<std::string>& rows,
                         const std::vector<BarSeries>& series,
                         const std::vector<std::vector<double>>& values, const std::string& unit) {
  constexpr double kRowHeight = 20;
  const auto [left, right, bottom, height] = row_frame(rows, kRowHeight);
  double largest = 0;
  for (const std::vector<double>& row : values) {
    double total = 0;
    for (const double value : row) total += std::max(value, 0.0);
    largest = std::max(largest, total);
  }
  const double span = axis_end(largest);

  std::string out = open_svg(height, title) + x_axis(left, right, bottom, kTop, span, unit);
  for (size_t r = 0; r < rows.size(); ++r) {
    const double y = kTop + kRowHeight * double(r);
    out += text_at(left - 6, y + kRowHeight * 0.68, "end", rows[r]);
    double x = left;
    for (size_t s = 0; s < series.size() && r < values.size() && s < values[r].size(); ++s) {
      const double w = (right - left) * std::max(values[r][s], 0.0) / span;
      if (w <= 0) continue;
      out += "<rect x=\"" + coordinate(x) + "\" y=\"" + coordinate(y + 3) + "\" width=\"" +
             coordinate(w) + "\" height=\"" + coordinate(kRowHeight - 6) + "\" fill=\"" +
             series[s].colour + "\"><title>" + escape_markup(rows[r] + ": " + series[s].name + " " +
                                                              number(values[r][s]) + " " + unit) +
             "</title></rect>";
      x += w;
    }
  }
  std::vector<std::pair<std::string, std::string>> entries;
  for (const BarSeries& s : series) entries.emplace_back(s.name, s.colour);
  return out + legend(height - 10, entries) + "</svg>";
}

std::string cdf_plot(const std::string& title, const std::vector<CdfLine>& lines,
                     const std::vector<Marker>& markers, const std::string& unit) {
  constexpr double kPlotHeight = 220;
  const double left = 56;
  const double right = kWidth - kRight;
  const double bottom = kTop + kPlotHeight;
  const double height = bottom + kAxisBand + kLegendRow + 8;
  double largest = 0;
  for (const CdfLine& l : lines) {
    for (const double v : l.values) largest = std::max(largest, v);
  }
  for (const Marker& m : markers) largest = std::max(largest, m.x);
  const double span = axis_end(largest);
  const auto x_of = [&](double v) { return left + (right - left) * std::clamp(v, 0.0, span) / span; };
  const auto y_of = [&](double p) { return bottom - kPlotHeight * p; };

  std::string out = open_svg(height, title) + x_axis(left, right, bottom, kTop, span, unit);
  out += line(left, kTop, left, bottom, "#333");
  for (int q = 0; q <= 4; ++q) {
    const double y = y_of(q / 4.0);
    out += line(left - 4, y, left, y, "#333") + text_at(left - 7, y + 4, "end", number(q / 4.0));
  }
  std::vector<std::pair<std::string, std::string>> entries;
  for (const CdfLine& l : lines) {
    if (l.values.empty()) continue;
    std::vector<double> sorted = l.values;
    std::sort(sorted.begin(), sorted.end());
    // The empirical CDF as steps: flat at i/n until value i, then up to (i+1)/n.
    std::string points = coordinate(x_of(0)) + "," + coordinate(y_of(0));
    const double n = double(sorted.size());
    for (size_t i = 0; i < sorted.size(); ++i) {
      const double x = x_of(sorted[i]);
      points += " " + coordinate(x) + "," + coordinate(y_of(double(i) / n)) + " " + coordinate(x) +
                "," + coordinate(y_of(double(i + 1) / n));
    }
    points += " " + coordinate(right) + "," + coordinate(y_of(1));
    out += "<polyline fill=\"none\" stroke-width=\"2\" stroke=\"" + l.colour + "\" points=\"" +
           points + "\"/>";
    entries.emplace_back(l.name, l.colour);
  }
  for (const Marker& m : markers) {
    const double x = x_of(m.x);
    out += line(x, kTop, x, bottom, m.colour, " stroke-dasharray=\"5,4\" stroke-width=\"1.5\"");
    char label[32];
    std::snprintf(label, sizeof label, "%.4g", m.x);  // four figures are plenty
    entries.emplace_back(m.name + " " + label, m.colour);
  }
  return out + legend(height - 10, entries) + "</svg>";
}

std::string heat_map(const std::string& title, const std::vector<std::string>& rows,
                     const std::vector<std::vector<double>>& cells, double step, const std::string& unit) {
  constexpr double kRowHeight = 14;
  const auto [left, right, bottom, height] = row_frame(rows, kRowHeight);
  size_t columns = 1;
  for (const std::vector<double>& row : cells) columns = std::max(columns, row.size());
  const double span = step * double(columns);
  const double cell_width = (right - left) / double(columns);

  std::string out = open_svg(height, title);
  for (size_t r = 0; r < rows.size(); ++r) {
    const double y = kTop + kRowHeight * double(r);
    out += text_at(left - 6, y + kRowHeight * 0.75, "end", rows[r]);
    for (size_t c = 0; r < cells.size() && c < cells[r].size(); ++c) {
      const double level = std::clamp(cells[r][c], 0.0, 1.0);
      if (level <= 0) continue;
      // White (idle) to a dark red (busy the whole interval).
      const int g = int(std::lround(235 * (1 - level)));
      const int red = int(std::lround(255 - 100 * level));
      char fill[16];
      std::snprintf(fill, sizeof fill, "#%02x%02x%02x", red, g, g);
      out += "<rect x=\"" + coordinate(left + cell_width * double(c)) + "\" y=\"" + coordinate(y) +
             "\" width=\"" + coordinate(cell_width + 0.3) + "\" height=\"" +
             coordinate(kRowHeight - 1) + "\" fill=\"" + fill + "\"><title>" +
             escape_markup(rows[r] + " at " + number(step * double(c)) + " " + unit + ": " +
                           number(100 * level) + "%") +
             "</title></rect>";
    }
  }
  out += x_axis(left, right, bottom, bottom, span, unit);
  return out + legend(height - 10, {{"near 0%", "#ffebeb"}, {"50%", "#cd7676"}, {"100%", "#9b0000"}}) +
         "</svg>";
}

std::string time_plot(const std::string& title, const std::vector<TimeLine>& lines, double span,
                      const std::string& time_unit, const std::string& value_unit,
                      const std::vector<std::pair<double, double>>& shaded,
                      const std::string& shaded_name) {
  constexpr double kPlotHeight = 160;
  const double left = 64;
  const double right = kWidth - kRight;
  const double bottom = kTop + kPlotHeight;
  const double height = bottom + kAxisBand + kLegendRow + 8;
  span = span > 0 ? span : 1;
  double largest = 0;
  for (const TimeLine& l : lines) {
    for (const auto& point : l.points) largest = std::max(largest, point.second);
  }
  const double top_value = axis_end(largest);
  const auto x_of = [&](double t) { return left + (right - left) * std::clamp(t, 0.0, span) / span; };
  const auto y_of = [&](double v) { return bottom - kPlotHeight * std::clamp(v, 0.0, top_value) / top_value; };

  std::string out = open_svg(height, title);
  for (const auto& [from, to] : shaded) {
    if (!(to > from)) continue;
    out += "<rect x=\"" + coordinate(x_of(from)) + "\" y=\"" + coordinate(kTop) + "\" width=\"" +
           coordinate(std::max(x_of(to) - x_of(from), 0.5)) + "\" height=\"" + coordinate(kPlotHeight) +
           "\" fill=\"#d9d9d9\"/>";
  }
  out += x_axis(left, right, bottom, kTop, span, time_unit) + line(left, kTop, left, bottom, "#333");
  const double step = axis_step(top_value, 4);
  for (double tick = 0; tick <= top_value * (1 + 1e-9); tick += step) {
    out += line(left - 4, y_of(tick), left, y_of(tick), "#333") +
           text_at(left - 7, y_of(tick) + 4, "end", number(tick));
  }
  out += text_at(left - 7, kTop - 6, "end", value_unit);
  std::vector<std::pair<std::string, std::string>> entries;
  for (const TimeLine& l : lines) {
    if (l.points.empty()) continue;
    std::string points;
    for (size_t i = 0; i < l.points.size(); ++i) {
      const auto& [t, v] = l.points[i];
      if (l.steps && i > 0) points += " " + coordinate(x_of(t)) + "," + coordinate(y_of(l.points[i - 1].second));
      points += (points.empty() ? "" : " ") + coordinate(x_of(t)) + "," + coordinate(y_of(v));
    }
    out += "<polyline fill=\"none\" stroke-width=\"2\" stroke=\"" + l.colour + "\" points=\"" +
           points + "\"/>";
    entries.emplace_back(l.name, l.colour);
  }
  if (!shaded.empty() && !shaded_name.empty()) entries.emplace_back(shaded_name, "#d9d9d9");
  return out + legend(height - 10, entries) + "</svg>";
}

std::string scatter_plot(const std::string& title, const std::vector<ScatterPoint>& points,
                         const std::vector<std::pair<double, double>>& front, const std::string& x_unit,
                         const std::string& y_unit,
                         const std::vector<std::pair<std::string, std::string>>& legend_entries) {
  constexpr double kPlotHeight = 260;
  const double left = 64;
  const double right = kWidth - kRight;
  const double bottom = kTop + kPlotHeight;
  const double height = bottom + kAxisBand + kLegendRow + 8;
  double largest_x = 0, largest_y = 0;
  for (const ScatterPoint& p : points) {
    largest_x = std::max(largest_x, p.x);
    largest_y = std::max(largest_y, p.y);
  }
  const double span = axis_end(largest_x), top_value = axis_end(largest_y);
  const auto x_of = [&](double v) { return left + (right - left) * std::clamp(v, 0.0, span) / span; };
  const auto y_of = [&](double v) { return bottom - kPlotHeight * std::clamp(v, 0.0, top_value) / top_value; };
  std::string out = open_svg(height, title) + x_axis(left, right, bottom, kTop, span, x_unit) +
                    line(left, kTop, left, bottom, "#333");
  const double step = axis_step(top_value, 5);
  for (double tick = 0; tick <= top_value * (1 + 1e-9); tick += step) {
    out += line(left - 4, y_of(tick), left, y_of(tick), "#333") + text_at(left - 7, y_of(tick) + 4, "end", number(tick));
  }
  out += text_at(left - 7, kTop - 6, "end", y_unit);
  if (front.size() > 1) {
    std::string joined;
    for (const auto& [x, y] : front) joined += (joined.empty() ? "" : " ") + coordinate(x_of(x)) + "," + coordinate(y_of(y));
    out += "<polyline fill=\"none\" stroke=\"#555\" stroke-dasharray=\"4 3\" points=\"" + joined + "\"/>";
  }
  for (const ScatterPoint& p : points) {
    out += "<circle cx=\"" + coordinate(x_of(p.x)) + "\" cy=\"" + coordinate(y_of(p.y)) + "\" r=\"" +
           (p.labelled ? "5" : "3.5") + "\" fill=\"" + p.colour + "\"><title>" + escape_markup(p.name) +
           "</title></circle>";
    if (p.labelled) out += text_at(x_of(p.x) + 7, y_of(p.y) - 6, "start", p.name);
  }
  return out + legend(height - 10, legend_entries) + "</svg>";
}

}  // namespace uniference
