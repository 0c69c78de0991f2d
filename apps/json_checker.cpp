#include "apps/json_checker.h"

#include <algorithm>
#include <fstream>
#include <functional>
#include <set>
#include <sstream>

namespace uniference {

// RFC 6901: '~' and '/' inside a key are escaped so the pointer stays unambiguous.
namespace {

std::string pointer_token(const std::string& key) {
  std::string out;
  for (char c : key) {
    if (c == '~') {
      out += "~0";
    } else if (c == '/') {
      out += "~1";
    } else {
      out += c;
    }
  }
  return out;
}

}  // namespace

std::string child(const std::string& pointer, const std::string& key) {
  return pointer + "/" + pointer_token(key);
}

// How a found value is shown: scalars as JSON (strings quoted, long ones cut), containers
// by kind, since dumping a whole object into one line of error helps nobody.
std::string describe(const json& value) {
  switch (value.type()) {
    case json::value_t::object:
      return "an object";
    case json::value_t::array:
      return "an array";
    case json::value_t::string: {
      // Cut the text, not its JSON form, so no escape or UTF-8 sequence is split.
      const std::string& text = value.get_ref<const std::string&>();
      if (text.size() <= 60) break;
      size_t cut = 56;
      while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;
      return json(text.substr(0, cut)).dump(-1, ' ', false, json::error_handler_t::replace) + "...";
    }
    default:
      break;
  }
  // Built in code, a string need not be valid UTF-8; the message must still be made.
  return value.dump(-1, ' ', false, json::error_handler_t::replace);
}

std::string quoted_list(const std::vector<std::string>& names) {
  std::string out;
  for (size_t i = 0; i < names.size(); ++i) {
    if (i > 0) out += i + 1 == names.size() ? " or " : ", ";
    out += "\"" + names[i] + "\"";
  }
  return out;
}

namespace {

size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diagonal = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

}  // namespace

// The closest candidate to a misspelling, when it is close enough to be a likely typo.
std::string closest(const std::string& word, const std::vector<std::string>& candidates) {
  std::string best;
  size_t best_distance = std::max<size_t>(1, word.size() / 3) + 1;
  for (const std::string& candidate : candidates) {
    size_t distance = edit_distance(word, candidate);
    // A candidate as far away as the word is long shares nothing with it.
    if (distance < best_distance && distance < word.size()) {
      best_distance = distance;
      best = candidate;
    }
  }
  return best;
}

namespace {

// nlohmann::json keeps the last of two equal keys without a word. In a hand-edited file a
// repeated key is nearly always a mistake (the user edits the first, the second wins), so
// it is found while parsing and reported with its pointer.
class DuplicateKeyFinder {
 public:
  bool operator()(int /*depth*/, json::parse_event_t event, json& parsed) {
    switch (event) {
      case json::parse_event_t::object_start:
      case json::parse_event_t::array_start: {
        Frame frame;
        frame.pointer = next_child_pointer();
        frame.is_object = event == json::parse_event_t::object_start;
        frames_.push_back(std::move(frame));
        break;
      }
      case json::parse_event_t::object_end:
      case json::parse_event_t::array_end:
        if (!frames_.empty()) frames_.pop_back();
        break;
      case json::parse_event_t::key: {
        Frame& frame = frames_.back();
        frame.key = parsed.get<std::string>();
        if (!frame.keys.insert(frame.key).second && duplicate_.empty()) {
          duplicate_ = child(frame.pointer, frame.key);
        }
        break;
      }
      case json::parse_event_t::value:
        next_child_pointer();  // counts the element of an array
        break;
    }
    return true;
  }

  // Pointer of the first repeated key; empty when there was none.
  const std::string& duplicate() const { return duplicate_; }

 private:
  struct Frame {
    std::string pointer;
    bool is_object = true;
    std::set<std::string> keys;
    std::string key;
    size_t next_index = 0;
  };

  std::string next_child_pointer() {
    if (frames_.empty()) return "";
    Frame& parent = frames_.back();
    if (parent.is_object) return child(parent.pointer, parent.key);
    return parent.pointer + "/" + std::to_string(parent.next_index++);
  }

  std::vector<Frame> frames_;
  std::string duplicate_;
};

// nlohmann's message starts with its own prefix and position; ours carries the position in
// the compiler-like "file:line:column:" form editors jump to.
std::string parse_error_detail(const json::parse_error& error) {
  std::string message = error.what();
  size_t at = message.find("parse error");
  if (at != std::string::npos) {
    size_t colon = message.find(": ", at);
    if (colon != std::string::npos) return message.substr(colon + 2);
  }
  return message;
}

// A syntax error at a 0-based offset of the text, with its 1-based line and column.
ScenarioError error_at(const std::string& source_name, const std::string& text, size_t offset,
                       const std::string& detail) {
  offset = std::min(offset, text.size());
  const size_t line = 1 + size_t(std::count(text.begin(), text.begin() + offset, '\n'));
  const size_t last_newline = offset == 0 ? std::string::npos : text.rfind('\n', offset - 1);
  const size_t column = last_newline == std::string::npos ? offset + 1 : offset - last_newline;
  return ScenarioError(source_name, line, column, "invalid JSON: " + detail);
}

}  // namespace

json read_json_file(const std::string& path, const std::string& what) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw ScenarioError(path, "", "cannot open " + what);
  std::ostringstream text;
  text << in.rdbuf();
  return parse_json_text(text.str(), path);
}

json parse_json_text(const std::string& text, const std::string& source_name) {
  DuplicateKeyFinder duplicates;
  json document;
  try {
    document = json::parse(text, std::ref(duplicates));
  } catch (const json::parse_error& error) {
    // error.byte is the 1-based offset of the character the parser stopped at.
    throw error_at(source_name, text, error.byte > 0 ? error.byte - 1 : 0, parse_error_detail(error));
  } catch (const json::out_of_range& error) {
    // A number beyond a double (2e9999): the parser names the number, not where it is.
    const std::string what = error.what();
    const size_t open = what.find('\''), close = what.rfind('\'');
    const std::string number = open != std::string::npos && close > open ? what.substr(open + 1, close - open - 1) : "";
    const size_t at = number.empty() ? std::string::npos : text.find(number);
    const std::string detail = "the number " + (number.empty() ? std::string() : number + " ") + "is too large";
    if (at == std::string::npos) throw ScenarioError(source_name, "", "invalid JSON: " + detail);
    throw error_at(source_name, text, at, detail);
  }
  if (!duplicates.duplicate().empty()) {
    throw ScenarioError(source_name, duplicates.duplicate(),
                        "key appears twice in its object; remove one");
  }
  return document;
}

}  // namespace uniference
