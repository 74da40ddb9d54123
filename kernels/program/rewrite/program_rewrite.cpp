// The program rewriter's AST consumer (program_rewrite.h): the collector (collector.h) walks the
// AST of every device function and collects text insertions, which are applied to the source in
// one pass here. The tooling around it is rewrite_driver.cpp.
#include <algorithm>

#include "collector.h"

namespace ws {
namespace rewrite_internal {

int BuiltinIndex(const VarDecl* v) {
  if (v == nullptr || v->getIdentifier() == nullptr || !v->hasExternalStorage() ||
      !v->isFileVarDecl())
    return -1;
  const std::string name = v->getName().str();
  return name == "threadIdx"  ? 0
         : name == "blockIdx" ? 1
         : name == "blockDim" ? 2
         : name == "gridDim"  ? 3
                              : -1;
}

bool IsBuiltinVariable(const VarDecl* v) {
  return BuiltinIndex(v) >= 0;
}

std::string CString(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (c == '"' || c == '\\') out += '\\';
    if (c != '\n') out += c;
  }
  return out;
}

std::string NameOf(const FunctionDecl* f) {
  return f != nullptr && f->getIdentifier() != nullptr ? f->getName().str() : std::string();
}

bool IsAtomic(const FunctionDecl* f) {
  static const std::set<std::string> names = {"atomicAdd", "atomicSub", "atomicExch", "atomicMin",
                                              "atomicMax", "atomicInc", "atomicDec",  "atomicCAS",
                                              "atomicAnd", "atomicOr",  "atomicXor"};
  std::string n = NameOf(f);
  for (const char* scope : {"_block", "_system"}) {
    const std::size_t k = n.size() >= 6 ? n.rfind(scope) : std::string::npos;
    if (k != std::string::npos && k + std::strlen(scope) == n.size()) n.resize(k);
  }
  return names.count(n) > 0;
}

bool SpecialRegisterRead(const std::string& text, std::string* reg) {
  std::istringstream in(text);
  std::string op, dst, src;
  if (!(in >> op >> dst >> src)) return false;
  if (op != "mov.u32" && op != "mov.u64" && op != "mov.s32" && op != "mov.s64") return false;
  if (dst != "%0,") return false;
  std::size_t b = 0;
  while (b < src.size() && src[b] == '%') ++b;
  std::size_t e = src.size();
  while (e > b && src[e - 1] == ';') --e;
  std::string rest;
  in >> rest;
  if (b == 0 || e <= b || !(rest.empty() || rest == ";")) return false;
  *reg = src.substr(b, e - b);
  return true;
}

ProgramAccess HintedAccess(const FunctionDecl* f, bool* hinted) {
  static const std::set<std::string> loads = {"__ldg",  "__ldcg", "__ldca",
                                              "__ldcs", "__ldlu", "__ldcv"};
  static const std::set<std::string> stores = {"__stcg", "__stcs", "__stwb", "__stwt"};
  const std::string n = NameOf(f);
  *hinted = loads.count(n) > 0 || stores.count(n) > 0;
  return loads.count(n) > 0 ? ProgramAccess::kLoad : ProgramAccess::kStore;
}

const char* DeviceLibraryMacro(const FunctionDecl* f) {
  if (f == nullptr || !f->getDeclContext()->getRedeclContext()->isFileContext()) {
    if (f == nullptr || !f->isInStdNamespace()) return nullptr;
  }
  const std::string n = NameOf(f);
  return n == "printf" ? "WS_DEVICE_PRINTF" : n == "clock" ? "WS_DEVICE_CLOCK" : nullptr;
}

}  // namespace rewrite_internal

namespace {

using namespace rewrite_internal;  // NOLINT: the collector and its helpers

class Consumer : public ASTConsumer {
 public:
  Consumer(RewriteResult* result, const RewriteRequest& rq) : result_(result), rq_(rq) {}
  void HandleTranslationUnit(ASTContext& ctx) override {
    if (ctx.getDiagnostics().hasErrorOccurred()) return;
    Collector c(ctx, &result_->program, rq_);
    c.TraverseDecl(ctx.getTranslationUnitDecl());
    c.Finish();
    for (ProgramDiagnostic& d : c.errors()) result_->errors.push_back(std::move(d));
    result_->program.has_main = c.has_main();
    const SourceManager& sm = ctx.getSourceManager();
    for (auto& [f, edits] : c.SplitEdits()) {
      const std::string text = sm.getBufferData(f).str();
      if (f == sm.getMainFileID()) {
        result_->program.source = ApplyEdits(text, std::move(edits));
        continue;
      }
      ProgramFile file;
      file.name = c.DisplayName(f);
      file.path = c.AbsolutePath(f);
      file.text = text;
      if (!edits.empty()) file.rewritten = ApplyEdits(text, std::move(edits));
      result_->program.files.push_back(std::move(file));
    }
  }

 private:
  RewriteResult* result_;
  const RewriteRequest& rq_;
};

}  // namespace

// Applies the edits to `text`. At one offset: closing insertions first (inner before outer),
// then opening ones (outer before inner), then a replacement.
std::string ApplyEdits(const std::string& text, std::vector<Edit> edits) {
  std::stable_sort(edits.begin(), edits.end(), [](const Edit& a, const Edit& b) {
    if (a.begin != b.begin) return a.begin < b.begin;
    if (a.cls != b.cls) return a.cls < b.cls;
    if (a.cls == 0) return a.span < b.span;
    if (a.cls == 1) return a.span > b.span;
    return false;
  });
  std::string out;
  out.reserve(text.size() + edits.size() * 32);
  unsigned cursor = 0;
  for (const Edit& e : edits) {
    if (e.begin < cursor) continue;  // inside a replaced range (never made by the collector)
    out.append(text, cursor, e.begin - cursor);
    out += e.text;
    cursor = e.end > e.begin ? e.end : e.begin;
  }
  out.append(text, cursor, std::string::npos);
  return out;
}

std::unique_ptr<ASTConsumer> MakeRewriteConsumer(RewriteResult* result,
                                                 const RewriteRequest& request) {
  return std::make_unique<Consumer>(result, request);
}

}  // namespace ws
