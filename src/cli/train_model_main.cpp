// attention-train-model: trains the tiny language model and measures it (docs/model.md).
//
//   attention-train-model train  [--data DIR] [--out DIR] [--steps N] [--seed N] [--threads N]
//                                [--checkpoints yes|no] [--spans-by-language yes|no] [model options]
//       trains from scratch on DIR/corpus-train.txt and writes OUT/tiny-lm.bin and OUT/report.json,
//       and (unless --checkpoints no) the weights along the way in OUT/checkpoints/
//   attention-train-model report --weights FILE [--data DIR]
//       measures a weight file on the same probes and prints the report's measurements
//   attention-train-model dump   [--weights FILES] --text TEXT [--ablate L.H,L.H…] [--at N]
//                                [--target C] [--against C] [--edit P:C]
//       prints the forward pass on TEXT of the model in FILES (comma-separated files and folders:
//       any set lm::read_model reads, docs/your-model.md; the lab's model by default): the model,
//       tokens and their pieces, every head's map, logits and loss per position;
//       and view=model's own numbers for the same state (lab::ModelView, the page's code, its
//       keys read as a link reads them): attribution, heads' circuits, composition (and frobenius_random), edit,
//       scores
//
// Errors go to stderr as one sentence, with exit status 2 (bad arguments or input files).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>
#include <stdexcept>
#include <string>

#include <nlohmann/json.hpp>

#include "allocator.h"
#include "keys.h"
#include "measure.h"
#include "model_paths.h"
#include "model_view.h"
#include "trainer.h"
#include "lab_file.h"

namespace {

using nlohmann::json;

// Every character the model has a token for even where the corpus is short of it: printable
// ASCII, the line break, and the Spanish letters and marks (docs/model.md, "Vocabulary").
const std::string kAlways = [] {
  std::string s = "\n";
  for (char c = 0x20; c < 0x7F; ++c) s += c;
  return s + "áéíóúüñÁÉÍÓÚÜÑ¿¡";
}();
constexpr int kMinCount = 5;  // other characters need this many occurrences in the corpus

std::string read_text(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  if (!f) throw std::runtime_error(path + ": cannot read the file");
  std::ostringstream s;
  s << f.rdbuf();
  return s.str();
}

struct Args {
  std::string command;
  std::map<std::string, std::string> options;
  std::string get(const std::string& key, const std::string& fallback) const {
    const auto it = options.find(key);
    return it == options.end() ? fallback : it->second;
  }
  int number(const std::string& key, int fallback) const {
    return parsed<int>(key, fallback, "a whole number", [](const std::string& v, std::size_t* used) { return std::stoi(v, used); });
  }
  double real(const std::string& key, double fallback) const {
    return parsed<double>(key, fallback, "a number", [](const std::string& v, std::size_t* used) { return std::stod(v, used); });
  }
  bool yes(const std::string& key, bool fallback) const {
    const std::string v = get(key, fallback ? "yes" : "no");
    if (v != "yes" && v != "no") throw std::invalid_argument("--" + key + ": expected yes or no, got \"" + v + "\"");
    return v == "yes";
  }
  // The option's value read whole by `convert`, or `fallback` where it is not given.
  template <class T, class F>
  T parsed(const std::string& key, T fallback, const char* what, F convert) const {
    const std::string v = get(key, "");
    if (v.empty()) return fallback;
    std::size_t used = 0;
    T x{};
    try {
      x = convert(v, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used != v.size()) throw std::invalid_argument("--" + key + ": expected " + what + ", got \"" + v + "\"");
    return x;
  }
};

Args parse_args(int argc, char** argv) {
  if (argc < 2) throw std::invalid_argument("expected a command: train, report or dump");
  Args a;
  a.command = argv[1];
  for (int i = 2; i < argc; i += 2) {
    const std::string key = argv[i];
    if (key.rfind("--", 0) != 0 || i + 1 >= argc) throw std::invalid_argument(key + ": expected --option value");
    a.options[key.substr(2)] = argv[i + 1];
  }
  return a;
}

lm::Probes read_probes(const std::string& dir) {
  lm::Probes p;
  p.train = read_text(dir + "/corpus-train.txt");
  p.held_out = read_text(dir + "/corpus-heldout.txt");
  const json probes = json::parse(read_text(dir + "/probes.json"));
  p.sentences = probes.at("sentences").get<std::vector<std::string>>();
  p.random = probes.at("random").get<std::vector<std::string>>();
  for (const auto& [language, texts] : probes.at("held_out_sentences").items())
    for (const std::string& text : texts.get<std::vector<std::string>>()) p.held_out_sentences.push_back({language, text});
  // The sentences measure what the model does on text it never saw, and the two sets share none.
  const auto check = [&](const std::string& s) {
    if (p.train.find(s) != std::string::npos || p.held_out.find(s) != std::string::npos)
      throw std::invalid_argument(dir + "/probes.json: the sentence \"" + s + "\" is in the corpus");
  };
  for (const std::string& s : p.sentences) check(s);
  for (const lm::HeldOutSentence& s : p.held_out_sentences) {
    check(s.text);
    if (std::find(p.sentences.begin(), p.sentences.end(), s.text) != p.sentences.end())
      throw std::invalid_argument(dir + "/probes.json: the held-out sentence \"" + s.text + "\" is also a tuning sentence");
  }
  return p;
}

// Each language's share of corpus-train.txt, from DIR/sources.json (scripts/model_corpus.py):
// the characters its sources became, which are the tokens' positions (one token a character).
std::vector<lm::Part> language_parts(const std::string& dir) {
  const std::string file = dir + "/sources.json";
  std::map<std::string, lm::Part> parts;
  std::vector<std::string> order;
  const json sources = json::parse(read_text(file));
  for (const json& source : sources.at("sources")) {
    const std::string language = source.at("language");
    const auto [begin, end] = source.at("train_characters").get<std::pair<std::size_t, std::size_t>>();
    auto [at, added] = parts.try_emplace(language, lm::Part{begin, end});
    if (added) order.push_back(language);
    else if (at->second.end == begin) at->second.end = end;
    else throw std::invalid_argument(file + ": the sources in " + language + " are not one after another in the corpus");
  }
  std::vector<lm::Part> out;
  for (const std::string& language : order) out.push_back(parts.at(language));
  return out;
}

// The held-out sentences as probes.json gives them: a list for each language.
json held_out_probes(const lm::Probes& p) {
  json out = json::object();
  for (const lm::HeldOutSentence& s : p.held_out_sentences) out[s.language].push_back(s.text);
  return out;
}

json model_json(const lm::LanguageModel& m) {
  const lm::Architecture& c = m.config;
  std::vector<std::string> vocabulary{lm::Vocabulary::kUnknownText};
  for (const std::string& s : m.vocab.characters()->entries()) vocabulary.push_back(s);
  return {{"layers", c.layers},     {"heads", c.heads},
          {"d_model", c.d_model},   {"d_k", c.d_k},
          {"context", c.context},   {"parameters", m.parameter_count()},
          {"positions", "learned, added to the queries' and keys' input only"},
          {"vocabulary", vocabulary}};
}

// The steps whose weights the run keeps (docs/model.md, "How the heads formed"): every 250 to
// 2,000, where the induction head forms, then every 1,000; the last step is the shipped file.
bool checkpoint_due(int step, int steps) {
  return step < steps && step % (step <= 2000 ? 250 : 1000) == 0;
}

int train_command(const Args& a) {
  lm::TrainOptions o;
  o.layers = a.number("layers", o.layers);
  o.heads = a.number("heads", o.heads);
  o.d_model = a.number("d-model", o.d_model);
  o.context = a.number("context", o.context);
  o.steps = a.number("steps", o.steps);
  o.batch = a.number("batch", o.batch);
  o.threads = a.number("threads", o.threads);
  o.seed = std::uint32_t(a.number("seed", int(o.seed)));
  o.lr = float(a.real("lr", o.lr));
  o.init_std = float(a.real("init-std", o.init_std));
  o.warmup = a.number("warmup", o.warmup);
  o.mix.random_repeat = a.real("random-repeat", o.mix.random_repeat);
  o.mix.corpus_repeat = a.real("corpus-repeat", o.mix.corpus_repeat);
  const bool keep = a.yes("checkpoints", true), by_language = a.yes("spans-by-language", true);
  const std::string dir = a.get("data", "data/model"), out = a.get("out", "web/model");
  if (by_language) o.mix.span_parts = language_parts(dir);
  if (o.steps < 1 || o.layers < 1 || o.heads < 1 || o.d_model % o.heads != 0 || o.context < 8)
    throw std::invalid_argument("expected steps, layers and heads of at least 1, d-model a multiple of heads, context of at least 8");

  const lm::Probes probes = read_probes(dir);
  const lm::Vocabulary vocab = lm::Vocabulary::from_corpus(probes.train, kAlways, kMinCount);
  json checkpoints = json::array(), curve = json::array();
  // The folder made before training, not found missing after it.
  std::filesystem::create_directories(out);
  std::filesystem::remove_all(out + "/checkpoints");  // an earlier run's, which this one replaces
  if (keep) std::filesystem::create_directories(out + "/checkpoints");
  auto begin = std::chrono::steady_clock::now();
  double window = 0;
  const auto elapsed = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count(); };
  const auto log = [&](int step, double loss, const lm::LanguageModel& now) {
    window += loss;
    if (step % 100 == 0) {
      curve.push_back({{"step", step}, {"loss", window / 100}});
      std::fprintf(stderr, "step %d  loss %.3f  lr %.4f  %.0f s\n", step, window / 100, lm::learning_rate(o, step), elapsed());
      window = 0;
    }
    // How the heads form: the weights along the way, rounded as the shipped ones are, and their
    // measures (not counted in the time).
    if (keep && checkpoint_due(step, o.steps)) {
      const auto paused = std::chrono::steady_clock::now();
      const lm::LanguageModel rounded = lm::rounded_to_half(now);
      const json at = lm::measure(rounded, probes);
      std::fprintf(stderr, "step %d  %s %s\n", step, at.at("targets").dump().c_str(), at.at("copying").dump().c_str());
      char file[32];
      std::snprintf(file, sizeof file, "checkpoints/step-%d.bin", step);
      lm::save(rounded, out + "/" + file);
      checkpoints.push_back({{"step", step}, {"file", file}, {"loss", at.at("loss")}, {"targets", at.at("targets")},
                             {"copying", at.at("copying")}, {"heads", at.at("heads")}});
      begin += std::chrono::steady_clock::now() - paused;
    }
  };
  lm::LanguageModel m = lm::train_model(vocab, probes.train, o, log);
  const double seconds = elapsed();

  const json float32 = lm::measure(m, probes);
  m = lm::rounded_to_half(std::move(m));
  json report = lm::measure(m, probes);
  report["format"] = "attention-lab tiny-lm report 1";
  report["model"] = model_json(m);
  report["weights"] = {{"file", "tiny-lm.bin"}, {"dtype", "float16"},
                       {"float32_loss", float32.at("loss")}, {"float32_copying", float32.at("copying")}};
  report["probes"] = {{"sentences", probes.sentences}, {"random", probes.random},
                      {"held_out_sentences", held_out_probes(probes)}, {"windows", lm::kWindows}};
  report["training"] = {{"steps", o.steps}, {"batch", o.batch}, {"characters_per_step", o.batch * o.context},
                        {"seed", o.seed}, {"threads", o.threads}, {"lr", o.lr}, {"warmup", o.warmup}, {"init_std", o.init_std},
                        {"weight_decay", o.weight_decay}, {"final_lr_fraction", o.final_lr_fraction},
                        {"random_repeat", o.mix.random_repeat}, {"corpus_repeat", o.mix.corpus_repeat},
                        {"spans_by_language", by_language},
                        {"run_length", {o.mix.min_run, o.mix.max_run}}, {"seconds", seconds}, {"loss_curve", curve},
                        {"checkpoints", checkpoints}};
  lm::save(m, out + "/tiny-lm.bin");
  std::ofstream(out + "/report.json") << report.dump(1) << "\n";
  std::cout << report.at("targets").dump(1) << "\n";
  return 0;
}

int report_command(const Args& a) {
  const lm::LanguageModel m = lm::load(a.get("weights", "web/model/tiny-lm.bin"));
  std::cout << lm::measure(m, read_probes(a.get("data", "data/model"))).dump(1) << "\n";
  return 0;
}

int dump_command(const Args& a) {
  // --weights: a comma-separated list of files and folders.
  std::vector<std::string> paths;
  std::istringstream items(a.get("weights", "web/model/tiny-lm.bin"));
  for (std::string item; std::getline(items, item, ',');) paths.push_back(item);
  const lm::PathFiles files = lm::read_paths(paths);
  lab::ModelView view;
  lab::State s;
  s.view = lab::View::model;
  s.model = lab::LanguageModelChoice::opened;
  s.model_name = view.open(files.files()).name;
  view.update(s);
  const lm::LanguageModel& m = *view.model();
  const std::vector<int> tokens = m.vocab.encode(a.get("text", ""));
  std::vector<std::pair<int, int>> heads;
  std::istringstream list(a.get("ablate", ""));
  for (std::string item; std::getline(list, item, ',');) {
    int layer = -1, head = -1;
    char dot = 0, extra = 0;
    if (std::sscanf(item.c_str(), "%d%c%d%c", &layer, &dot, &head, &extra) != 3 || dot != '.')
      throw std::invalid_argument("--ablate: expected layer.head items separated by commas, got \"" + item + "\"");
    heads.emplace_back(layer, head);
  }
  const lm::Analysis r = lm::analyse(m, tokens, lm::head_mask(m, heads));
  json maps = json::array();
  for (const lm::Matrix& map : r.maps) {
    json rows = json::array();
    for (Eigen::Index i = 0; i < map.rows(); ++i) rows.push_back(std::vector<float>(map.row(i).data(), map.row(i).data() + map.cols()));
    maps.push_back(rows);
  }
  json logits = json::array();
  for (Eigen::Index i = 0; i < r.logits.rows(); ++i)
    logits.push_back(std::vector<float>(r.logits.row(i).data(), r.logits.row(i).data() + r.logits.cols()));
  json out{{"model", lab::model_json(m)}, {"tokens", tokens}, {"pieces", m.vocab.pieces(tokens)},
           {"maps", maps}, {"logits", logits}, {"loss", r.loss}};
  // The view's numbers, from the state a link with the same keys makes.
  s.text = a.get("text", "");
  s.ablate = heads;
  for (const std::string key : {"at", "target", "against", "edit"}) {
    if (!a.options.count(key)) continue;
    lab::Reading reading{key, a.options.at(key)};
    const std::string note = lab::find_key(key)->read(s, reading);
    if (!note.empty() || reading.out_of_range) throw std::invalid_argument("--" + key + ": " + note);
  }
  view.update(s);
  const json page = json::parse(view.json());
  for (const char* key : {"attribution", "attribution_error", "heads", "composition", "frobenius_random", "edit", "edit_error",
                          "scores"})
    if (page.contains(key)) out[key] = page[key];
  std::cout << out.dump() << "\n";
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  train::keep_freed_memory();
  try {
    const Args a = parse_args(argc, argv);
    if (a.command == "train") return train_command(a);
    if (a.command == "report") return report_command(a);
    if (a.command == "dump") return dump_command(a);
    throw std::invalid_argument("unknown command \"" + a.command + "\": expected train, report or dump");
  } catch (const std::exception& e) {
    std::cerr << "attention-train-model: " << e.what() << "\n";
    return 2;
  }
}
