// The documents and the parsers name the same keys: docs/embed.md every state key that
// lab::parse_fragment reads (links, setState(), element attributes, host messages), and
// docs/contract.md every request field and output name that attn::io::parse_request takes.
// A key added to a parser without its documentation fails here, and so does a documented
// key that no parser reads.
#include <gtest/gtest.h>

#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>

#include "contract.h"
#include "figure_parts.h"
#include "state.h"
#include "test_data.h"

namespace {

// The names a document gives in `section` (a "## " heading): the backquoted words of the first
// column of its tables, e.g. "| `n`, `nq`, `nk` | …" names n, nq and nk.
std::set<std::string> documented(const std::string& file, const std::string& section) {
  std::istringstream doc(testing_ref::read_file(std::string(ATTN_DOCS_DIR) + "/" + file));
  std::set<std::string> names;
  bool inside = false, found = false;
  const std::regex quoted("`([^`]+)`");
  for (std::string line; std::getline(doc, line);) {
    if (line.rfind("## ", 0) == 0) {
      inside = line == section;
      found = found || inside;
      continue;
    }
    if (!inside || line.empty() || line[0] != '|') continue;
    const std::string first = line.substr(1, line.find('|', 1) - 1);
    for (std::sregex_iterator m(first.begin(), first.end(), quoted), end; m != end; ++m) names.insert((*m)[1]);
  }
  EXPECT_TRUE(found) << file << " has no section \"" << section << "\"";
  return names;
}

// "a, b" for the names of `of` missing from `in`.
std::string missing(const std::set<std::string>& of, const std::set<std::string>& in) {
  std::string text;
  for (const std::string& name : of)
    if (!in.count(name)) text += (text.empty() ? "" : ", ") + name;
  return text;
}

TEST(Docs, EmbedDocumentsEveryStateKeyAndNoOther) {
  const std::vector<std::string> keys = lab::state_keys();
  const std::set<std::string> read(keys.begin(), keys.end());
  const std::set<std::string> doc = documented("embed.md", "## State keys");
  EXPECT_EQ(missing(read, doc), "") << "keys the state parser reads that docs/embed.md does not document";
  EXPECT_EQ(missing(doc, read), "") << "keys docs/embed.md documents that the state parser does not read";
}

// docs/embed.md's table of figure parts: one row per view, "| `view` | `part`, `part`, … |",
// naming exactly the parts lab::figure_parts gives that view, in its order.
TEST(Docs, EmbedDocumentsEveryViewsFigureParts) {
  std::istringstream doc(testing_ref::read_file(std::string(ATTN_DOCS_DIR) + "/embed.md"));
  std::map<std::string, std::vector<std::string>> rows;
  bool figures = false, inside = false;
  const std::regex quoted("`([^`]+)`");
  for (std::string line; std::getline(doc, line);) {
    if (line.rfind("## ", 0) == 0) {
      figures = line == "## Figures";
      inside = false;
    }
    if (line.rfind("### ", 0) == 0) inside = figures && line == "### The parts of each view";
    if (!inside || line.rfind("| `", 0) != 0) continue;
    const std::size_t second = line.find('|', 1), third = line.find('|', second + 1);
    std::smatch view;
    const std::string first = line.substr(1, second - 1), parts = line.substr(second + 1, third - second - 1);
    if (!std::regex_search(first, view, quoted)) continue;
    for (std::sregex_iterator m(parts.begin(), parts.end(), quoted), end; m != end; ++m) rows[view[1]].push_back((*m)[1]);
  }
  for (const lab::ViewRow& v : lab::kViews) {
    std::vector<std::string> parts;
    for (std::string_view p : lab::figure_parts(v.view)) parts.emplace_back(p);
    EXPECT_EQ(rows[v.name], parts) << "docs/embed.md's figure parts of view=" << v.name;
  }
  EXPECT_EQ(rows.size(), lab::kViewCount) << "a row for a view that does not exist";
}

TEST(Docs, ContractDocumentsEveryRequestFieldAndNoOther) {
  const std::set<std::string> doc = documented("contract.md", "## Request");
  EXPECT_EQ(missing(attn::io::request_fields(), doc), "") << "request fields docs/contract.md does not document";
  EXPECT_EQ(missing(doc, attn::io::request_fields()), "") << "fields docs/contract.md documents that requests refuse";
}

TEST(Docs, ContractDocumentsEveryOutputAndNoOther) {
  const std::set<std::string> doc = documented("contract.md", "## Response");
  EXPECT_EQ(missing(attn::io::output_names(), doc), "") << "outputs docs/contract.md does not document";
  EXPECT_EQ(missing(doc, attn::io::output_names()), "") << "outputs docs/contract.md documents that requests refuse";
}

// Every link to the page that the documents give (`index.html#…`) means what it says: its keys
// and values are all read, without a note.
TEST(Docs, EveryLinkInTheDocumentsParsesWithoutNotes) {
  std::vector<std::string> files{std::string(ATTN_DOCS_DIR) + "/../README.md"};
  if (DIR* d = opendir(ATTN_DOCS_DIR)) {
    while (dirent* e = readdir(d)) {
      const std::string name = e->d_name;
      if (name.size() > 3 && name.compare(name.size() - 3, 3, ".md") == 0) files.push_back(std::string(ATTN_DOCS_DIR) + "/" + name);
    }
    closedir(d);
  }
  EXPECT_GE(files.size(), 4u);
  const std::regex link(R"(index\.html#([A-Za-z0-9_=&.,:%+-]+))");
  int links = 0;
  for (const std::string& file : files) {
    const std::string text = testing_ref::read_file(file);
    for (std::sregex_iterator m(text.begin(), text.end(), link), end; m != end; ++m, ++links) {
      const auto r = lab::parse_fragment((*m)[1].str(), lab::State{});
      EXPECT_TRUE(r.notes.empty()) << file << ": " << (*m)[1] << ": " << (r.notes.empty() ? "" : r.notes.front());
    }
  }
  EXPECT_GT(links, 5);
}

}  // namespace
