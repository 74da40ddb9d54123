// The SIMT path's calls of __device__ functions and templates (collector_simt.h): the warp
// function's name a call writes, a template's instantiations checked together, and the parts of a
// loop the two walkers share.
#include <algorithm>

#include "collector_simt.h"

namespace ws::rewrite_internal {

std::string Collector::WarpFnName(const FunctionDecl* g, const CallExpr* c,
                                  const SimtKernel& k) const {
  const std::string name = g->getName().str() + "__ws_warp";
  if (g->getPrimaryTemplate() == nullptr && g->getDescribedFunctionTemplate() == nullptr)
    return name;
  if (c->getDirectCallee() == nullptr) {  // in a template's text: its arguments as written
    const auto* ule = dyn_cast<UnresolvedLookupExpr>(c->getCallee()->IgnoreParenImpCasts());
    if (!k.pattern || ule == nullptr || !ule->hasExplicitTemplateArgs()) return "";
    // Every argument written (a default, which the warp function's own list may lack, is not).
    const FunctionTemplateDecl* t = g->getPrimaryTemplate() != nullptr
                                        ? g->getPrimaryTemplate()
                                        : g->getDescribedFunctionTemplate();
    if (t == nullptr || ule->getNumTemplateArgs() != t->getTemplateParameters()->size()) return "";
    const CharSourceRange r = FileRange(SourceRange(ule->getLAngleLoc(), ule->getRAngleLoc()));
    if (r.isInvalid()) return "";
    return name + RawText(Offset(r.getBegin()), Offset(r.getEnd()));
  }
  const TemplateArgumentList* args = g->getTemplateSpecializationArgs();
  if (args == nullptr) return "";
  PrintingPolicy pp = ctx_.getPrintingPolicy();
  pp.SuppressTagKeyword = true;
  pp.FullyQualifiedName = true;
  std::string text;
  llvm::raw_string_ostream os(text);
  for (unsigned i = 0; i < args->size(); ++i) {
    if (args->get(i).getKind() == TemplateArgument::Pack) return "";  // (yet)
    os << (i == 0 ? "<" : ", ");
    args->get(i).print(pp, os, /*IncludeType=*/true);
  }
  os << ">";
  return name + os.str();
}

bool ArrayReference(const ParmVarDecl* p) {
  return p->getType()->isLValueReferenceType() &&
         p->getType().getNonReferenceType()->isConstantArrayType();
}

bool SharedArrayArgument(const Expr* arg) {
  const auto* d = dyn_cast<DeclRefExpr>(arg->IgnoreParenImpCasts());
  const auto* v = d != nullptr ? dyn_cast<VarDecl>(d->getDecl()) : nullptr;
  return v != nullptr && v->hasAttr<CUDASharedAttr>() && v->getType()->isConstantArrayType();
}

std::set<unsigned> DependentCalls(const Stmt* body) {
  std::set<unsigned> out;
  std::vector<const Stmt*> todo = {body};
  while (!todo.empty()) {
    const Stmt* s = todo.back();
    todo.pop_back();
    if (s == nullptr) continue;
    if (const auto* c = dyn_cast<CallExpr>(s);
        c != nullptr && c->getDirectCallee() == nullptr && c->isTypeDependent())
      out.insert(c->getBeginLoc().getRawEncoding());
    for (const Stmt* ch : s->children()) todo.push_back(ch);
  }
  return out;
}

bool SameCalls(std::map<unsigned, const FunctionDecl*>& into,
               const std::map<unsigned, const FunctionDecl*>& from, bool first,
               const std::set<unsigned>& dependent) {
  auto identity = [](const FunctionDecl* f) -> const Decl* {
    if (const FunctionTemplateDecl* t = f->getPrimaryTemplate()) return t->getCanonicalDecl();
    return f->getCanonicalDecl();
  };
  std::map<unsigned, const FunctionDecl*> mine;
  for (const auto& [at, f] : from)
    if (dependent.count(at) > 0) mine.emplace(at, f);
  if (first) {
    into = std::move(mine);
    return true;
  }
  if (into.size() != mine.size()) return false;
  for (const auto& [at, f] : mine) {
    auto it = into.find(at);
    if (it == into.end() || identity(it->second) != identity(f)) return false;
  }
  return true;
}

LoopParts PartsOfLoop(const Stmt* s) {
  LoopParts p;
  if (const auto* f = dyn_cast<ForStmt>(s)) {
    p = {f->getInit(), f->getCond(), f->getInc(), f->getBody(), false};
  } else if (const auto* w = dyn_cast<WhileStmt>(s)) {
    p = {nullptr, w->getCond(), nullptr, w->getBody(), false};
  } else if (const auto* d = dyn_cast<DoStmt>(s)) {
    p = {nullptr, d->getCond(), nullptr, d->getBody(), true};
  }
  return p;
}

// Checks each instantiation of template `ftd` (its text: `body`) as the warp function would run
// it; "" where every one can, else why not. `k.resolved` gets the functions the text's dependent
// calls name; `hoisted` the most calls of warp functions one makes. A __device__ function template
// (`device`) with an explicit specialization is refused: its warp function is the primary's text.
std::string Collector::SimtInstantiations(const FunctionTemplateDecl* ftd, const Stmt* body,
                                          bool device, SimtKernel& k, std::size_t* hoisted) {
  bool first = true;
  const std::set<unsigned> dependent = DependentCalls(body);
  for (const FunctionDecl* spec : ftd->specializations()) {
    if (device && spec->getTemplateSpecializationKind() == TSK_ExplicitSpecialization)
      return "a function template with an explicit specialization (yet)";
    if (spec->getBody() == nullptr) continue;
    SimtKernel each;
    each.f = spec;
    each.device = device;
    if (std::string why = SimtCheckStmt(spec->getBody(), each, 0); !why.empty()) return why;
    *hoisted = std::max(*hoisted, each.hoist.size());
    if (!SameCalls(k.resolved, each.resolved, first, dependent))
      return "its instantiations call different functions at one place (yet)";
    first = false;
  }
  return "";
}

}  // namespace ws::rewrite_internal
