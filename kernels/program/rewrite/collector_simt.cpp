// The SIMT path's warp functions (collector.h; docs/ENGINE.md, "The SIMT engine"). Beside each
// kernel it can express, the rewriter writes a copy that runs a whole warp at once:
//
//   static inline void K__ws_warp(::ws::simt::Warp& ws_W, PARAMS) { ... }
//
// - Each of the thread's variables becomes ::ws::simt::Lanes<T> (32 values); a kernel parameter
//   stays one value unless the kernel changes it.
// - A simple statement (an expression, a declaration, a condition) runs once per running lane, in
//   lane order, with the variables it names bound to the lane's values (`auto& x = ws_v3[ws_l];`)
//   and its text as written (with the accesses' edits): WS_SIMT_LANES ... WS_SIMT_END. Each access
//   puts its lane's address in its slot (::ws::simt::Ld/St/LdSt/At); after the statement each slot
//   with lanes is one warp request.
// - Control flow runs under the warp's mask: `if` runs its two sides with their lanes
//   (::ws::simt::If), a loop steps while any lane goes on (::ws::simt::Loop), break, continue and
//   return take the running lanes out. The lanes meet again after the construct (a pre-Volta
//   warp's reconvergence at the immediate post-dominator).
// - __syncthreads() (a statement of its own) stops the warp (::ws::simt::Barrier).
//
// What it cannot express it names (simt_no_), and that kernel runs on the per-thread path.
#include <clang/AST/ParentMapContext.h>

#include <functional>

#include "collector.h"

namespace ws::rewrite_internal {

struct Collector::SimtKernel {
  const FunctionDecl* f = nullptr;
  std::map<const VarDecl*, std::string> lanes;  // the thread's variables: their Lanes<T>
  int next = 0;                                 // for names
  bool pattern = false;                         // a template's own text (its calls unresolved)
  bool device = false;                          // a __device__ function's (return: its lanes')
  std::set<const CallExpr*> hoist;              // calls of __device__ functions' warp functions
  std::set<const CallExpr*> meetings;           // and of warp-level intrinsics (WarpCall)
  std::uint64_t bytes = 0;                      // the Lanes<T> on the warp's stack
  std::string Name(const char* what) { return std::string("ws_") + what + std::to_string(++next); }
};

namespace {

constexpr unsigned kMaxSlots = 32;  // ws_program_simt.h's kMaxSlots: accesses in one statement
// The thread's variables, 32 times, on a warp fiber's 1 MiB stack (worker_simt.cpp), with room
// for the calls it makes.
constexpr std::uint64_t kMaxLaneBytes = 512 * 1024;

// The variable an lvalue is part of: `p`, `p.x`, `p.a[3]` (not through a pointer).
const VarDecl* BaseVar(const Expr* e) {
  for (;;) {
    e = e->IgnoreParenImpCasts();
    if (const auto* m = dyn_cast<MemberExpr>(e)) {
      if (m->isArrow()) return nullptr;
      e = m->getBase();
    } else if (const auto* a = dyn_cast<ArraySubscriptExpr>(e)) {
      const auto* decay = dyn_cast<ImplicitCastExpr>(a->getBase()->IgnoreParens());
      if (decay == nullptr || decay->getCastKind() != CK_ArrayToPointerDecay) return nullptr;
      e = decay->getSubExpr();
    } else {
      break;
    }
  }
  const auto* d = dyn_cast<DeclRefExpr>(e);
  return d != nullptr ? dyn_cast<VarDecl>(d->getDecl()) : nullptr;
}

// Does `body` change parameter `p` (assign to it or a part of it, take its address, bind it to a
// reference that is not const, call a method that is not const on it, or let an array member
// decay to a pointer other than to index it)?
bool Changes(const Stmt* body, const VarDecl* p) {
  std::vector<const Stmt*> todo = {body};
  while (!todo.empty()) {
    const Stmt* s = todo.back();
    todo.pop_back();
    if (const auto* a = dyn_cast<ArraySubscriptExpr>(s)) {  // indexing an array member
      const auto* decay = dyn_cast<ImplicitCastExpr>(a->getBase()->IgnoreParens());
      if (decay != nullptr && decay->getCastKind() == CK_ArrayToPointerDecay) {
        todo.push_back(decay->getSubExpr());
        todo.push_back(a->getIdx());
        continue;
      }
    }
    if (const auto* b = dyn_cast<BinaryOperator>(s)) {
      if (b->isAssignmentOp() && BaseVar(b->getLHS()) == p) return true;
    } else if (const auto* u = dyn_cast<UnaryOperator>(s)) {
      if ((u->isIncrementDecrementOp() || u->getOpcode() == UO_AddrOf) &&
          BaseVar(u->getSubExpr()) == p)
        return true;
    } else if (const auto* o = dyn_cast<CXXOperatorCallExpr>(s)) {
      if (o->getNumArgs() > 0 && BaseVar(o->getArg(0)) == p) {
        const auto* m = dyn_cast_or_null<CXXMethodDecl>(o->getDirectCallee());
        if (m == nullptr || !m->isConst()) return true;
      }
    } else if (const auto* mc = dyn_cast<CXXMemberCallExpr>(s)) {
      const CXXMethodDecl* m = mc->getMethodDecl();
      if (mc->getImplicitObjectArgument() != nullptr &&
          BaseVar(mc->getImplicitObjectArgument()) == p && (m == nullptr || !m->isConst()))
        return true;
    } else if (const auto* c = dyn_cast<CallExpr>(s)) {
      const FunctionDecl* f = c->getDirectCallee();
      for (unsigned i = 0; i < c->getNumArgs(); ++i) {
        if (BaseVar(c->getArg(i)) != p) continue;
        if (f == nullptr || i >= f->getNumParams()) return true;
        const QualType t = f->getParamDecl(i)->getType();
        if (t->isReferenceType() && !t.getNonReferenceType().isConstQualified()) return true;
      }
    } else if (const auto* cast = dyn_cast<ImplicitCastExpr>(s)) {
      if (cast->getCastKind() == CK_ArrayToPointerDecay && BaseVar(cast->getSubExpr()) == p)
        return true;  // `p.a` as a pointer (indexing it is not: BaseVar sees through it)
    }
    for (const Stmt* c : s->children())
      if (c != nullptr) todo.push_back(c);
  }
  return false;
}

bool IsWarpIntrinsic(const std::string& n) {
  static const std::set<std::string> names = {"__syncthreads_count",
                                              "__syncthreads_and",
                                              "__syncthreads_or",
                                              "__syncwarp",
                                              "__shfl_sync",
                                              "__shfl_up_sync",
                                              "__shfl_down_sync",
                                              "__shfl_xor_sync",
                                              "__shfl",
                                              "__shfl_up",
                                              "__shfl_down",
                                              "__shfl_xor",
                                              "__ballot_sync",
                                              "__any_sync",
                                              "__all_sync",
                                              "__activemask",
                                              "__match_any_sync",
                                              "__match_all_sync",
                                              "__reduce_add_sync",
                                              "__reduce_min_sync",
                                              "__reduce_max_sync",
                                              "__reduce_and_sync",
                                              "__reduce_or_sync",
                                              "__reduce_xor_sync",
                                              "__ballot",
                                              "__any",
                                              "__all"};
  return names.count(n) > 0;
}

// The intrinsics a warp function runs as a meeting of its running lanes (WarpCall): every one
// whose value moves in one 8-byte step.
bool MeetingIntrinsic(const std::string& n) {
  static const std::set<std::string> names = {
      "__shfl_sync",       "__shfl_up_sync",    "__shfl_down_sync",  "__shfl_xor_sync",
      "__ballot_sync",     "__any_sync",        "__all_sync",        "__activemask",
      "__syncwarp",        "__reduce_add_sync", "__reduce_min_sync", "__reduce_max_sync",
      "__reduce_and_sync", "__reduce_or_sync",  "__reduce_xor_sync"};
  return names.count(n) > 0;
}

bool InNamespace(const Decl* d, const char* ns) {
  for (const DeclContext* c = d->getDeclContext(); c != nullptr; c = c->getParent()) {
    if (const auto* n = dyn_cast<NamespaceDecl>(c)) {
      if (n->getName() == ns) return true;
    }
  }
  return false;
}

// A cooperative-groups class of the shim's, by name ("thread_block"); "" for anything else.
std::string GroupClass(QualType t) {
  const CXXRecordDecl* r = t.getNonReferenceType()->getAsCXXRecordDecl();
  if (r == nullptr || r->getIdentifier() == nullptr || !InNamespace(r, "cooperative_groups"))
    return "";
  return r->getName().str();
}

// `block.sync()` or `cg::sync(block)` on a thread_block: the block's barrier, as __syncthreads();
// the call whose line names it (its place, as the shim's default argument takes it).
const Expr* BlockSync(const Expr* e) {
  e = e->IgnoreParenImpCasts();
  if (const auto* m = dyn_cast<CXXMemberCallExpr>(e)) {
    const CXXMethodDecl* f = m->getMethodDecl();
    if (f != nullptr && f->getName() == "sync" && m->getImplicitObjectArgument() != nullptr &&
        GroupClass(m->getImplicitObjectArgument()->getType()) == "thread_block")
      return m;
  } else if (const auto* c = dyn_cast<CallExpr>(e)) {
    const FunctionDecl* f = c->getDirectCallee();
    if (f != nullptr && f->getIdentifier() != nullptr && f->getName() == "sync" &&
        InNamespace(f, "cooperative_groups") && c->getNumArgs() >= 1 &&
        GroupClass(c->getArg(0)->getType()) == "thread_block")
      return c;
  }
  return nullptr;
}

// A call into cooperative groups the SIMT engine runs lane by lane: a thread_block's own (its
// rank, size and indices read the running lane) and this_thread_block().
bool BlockQuery(const FunctionDecl* f) {
  if (f == nullptr || f->getIdentifier() == nullptr) return false;
  if (f->getName() == "this_thread_block") return true;
  const auto* m = dyn_cast<CXXMethodDecl>(f);
  return m != nullptr && m->getName() != "sync" && m->getParent()->getIdentifier() != nullptr &&
         m->getParent()->getName() == "thread_block";
}

}  // namespace

std::string Collector::RawText(unsigned b, unsigned e) const {
  const SourceLocation lb = SourceLocation::getFromRawEncoding(b);
  const auto [file, off] = sm_.getDecomposedLoc(lb);
  const StringRef data = sm_.getBufferData(file);
  return data.substr(off, e - b).str();
}

bool Collector::CalleeTouchesMemory(const FunctionDecl* f,
                                    std::set<const FunctionDecl*>& seen) const {
  const FunctionDecl* def = f->getDefinition();
  if (def == nullptr || !seen.insert(def).second) return false;
  if (def->getTemplateInstantiationPattern() != nullptr)
    def = def->getTemplateInstantiationPattern();
  const Stmt* body = def->getBody();
  if (body == nullptr) return false;
  const CharSourceRange r = FileRange(body->getSourceRange());
  if (r.isInvalid()) return false;
  const unsigned b = Offset(r.getBegin()), e = Offset(r.getEnd());
  for (const Numbered& n : numbered_) {
    if (n.a.begin >= b && n.a.end <= e) return true;
  }
  std::vector<const Stmt*> todo = {body};
  while (!todo.empty()) {
    const Stmt* s = todo.back();
    todo.pop_back();
    if (const auto* c = dyn_cast<CallExpr>(s)) {
      const FunctionDecl* callee = c->getDirectCallee();
      const std::string n = NameOf(callee);
      if (n == "__syncthreads" || IsWarpIntrinsic(n)) return true;
      if (callee != nullptr && (InNamespace(callee, "cooperative_groups") || n == "tex1Dfetch" ||
                                n == "tex1D" || n == "tex2D"))
        return true;
      if (callee != nullptr && CalleeTouchesMemory(callee, seen)) return true;
    }
    for (const Stmt* c : s->children())
      if (c != nullptr) todo.push_back(c);
  }
  return false;
}

// Why expression (or declaration) `e` cannot run once per lane in a lane loop; "" when it can.
std::string Collector::SimtCheckExpr(const Stmt* e, SimtKernel& k) {
  auto line = [&](const Stmt* s) {
    return std::to_string(sm_.getExpansionLineNumber(s->getBeginLoc()));
  };
  std::vector<const Stmt*> todo = {e};
  while (!todo.empty()) {
    const Stmt* s = todo.back();
    todo.pop_back();
    if (isa<LambdaExpr>(s)) return "a lambda on line " + line(s);
    if (isa<StmtExpr>(s)) return "a statement expression on line " + line(s);
    if (isa<CUDAKernelCallExpr>(s)) return "a kernel launch in a kernel on line " + line(s);
    if (isa<CXXThrowExpr>(s)) return "a throw on line " + line(s);
    if (const auto* c = dyn_cast<CallExpr>(s)) {
      const FunctionDecl* callee = c->getDirectCallee();
      const std::string n = NameOf(callee);
      if (callee == nullptr && !isa<CXXPseudoDestructorExpr>(c->getCallee()) && !k.pattern)
        return "a call through a pointer on line " + line(s);
      if (n == "__syncthreads") return "__syncthreads() inside an expression on line " + line(s);
      if (IsWarpIntrinsic(n)) {
        if (!MeetingIntrinsic(n) || callee == nullptr)
          return n + "() (a warp-level intrinsic) on line " + line(s) + " (yet)";
        for (unsigned i = 0; i < c->getNumArgs(); ++i) {
          const QualType t = c->getArg(i)->getType();
          if (!isa<CXXDefaultArgExpr>(c->getArg(i)) && !t->isDependentType() &&
              ctx_.getTypeSizeInChars(t).getQuantity() > 8)
            return n + "() of a value over 8 bytes on line " + line(s) + " (yet)";
        }
        k.hoist.insert(c);
        k.meetings.insert(c);
      }
      if (callee != nullptr && InNamespace(callee, "cooperative_groups") && !BlockQuery(callee) &&
          !(isa<CXXConstructorDecl>(callee) &&
            GroupClass(QualType(cast<CXXConstructorDecl>(callee)->getParent()->getTypeForDecl(),
                                0)) == "thread_block"))
        return "cooperative groups on line " + line(s) +
               " (a thread_block's sync and queries only, yet)";
      if (n == "tex1Dfetch" || n == "tex1D" || n == "tex2D")
        return "a texture fetch on line " + line(s);
      std::set<const FunctionDecl*> seen;
      if (callee != nullptr && CalleeTouchesMemory(callee, seen)) {
        // A __device__ function that accesses memory or meets other threads runs as a warp
        // function of its own, called once for the warp (SimtLeaf hoists the call).
        const FunctionDecl* def = callee->getDefinition();
        if (def != nullptr && !sm_.isBeforeInTranslationUnit(sm_.getExpansionLoc(def->getEndLoc()),
                                                             sm_.getExpansionLoc(c->getBeginLoc())))
          return "a call of " + n + "() on line " + line(s) +
                 ", which is defined after its caller (yet)";
        const std::string why = SimtDeviceFn(callee);
        if (!why.empty())
          return "a call of " + n + "(), which accesses memory or meets other threads, on line " +
                 line(s) + ": " + why;
        k.hoist.insert(c);
      }
    }
    for (const Stmt* c : s->children())
      if (c != nullptr) todo.push_back(c);
  }
  // A hoisted call runs once, before the rest of its statement: not where only some lanes' turn
  // would reach it (a side of ?:, &&, ||), nor inside another hoisted call's arguments.
  std::string why;
  std::function<void(const Stmt*, bool, bool)> walk = [&](const Stmt* x, bool conditional,
                                                          bool in_hoisted) {
    if (x == nullptr || !why.empty()) return;
    const auto* c = dyn_cast<CallExpr>(x);
    const bool hoisted = c != nullptr && k.hoist.count(c) > 0;
    if (hoisted && (conditional || in_hoisted)) {
      why = "a call of " + NameOf(c->getDirectCallee()) + "() on line " + line(x) +
            " where only some lanes reach it or inside another such call's arguments (yet)";
      return;
    }
    if (hoisted && k.meetings.count(c) == 0) {
      for (const Expr* a : c->arguments())
        if (isa<CXXDefaultArgExpr>(a)) why = "a default argument of a hoisted call (yet)";
    }
    if (const auto* co = dyn_cast<AbstractConditionalOperator>(x)) {
      walk(co->getCond(), conditional, in_hoisted);
      walk(co->getTrueExpr(), true, in_hoisted);
      walk(co->getFalseExpr(), true, in_hoisted);
      return;
    }
    if (const auto* b = dyn_cast<BinaryOperator>(x); b != nullptr && b->isLogicalOp()) {
      walk(b->getLHS(), conditional, in_hoisted);
      walk(b->getRHS(), true, in_hoisted);
      return;
    }
    for (const Stmt* ch : x->children()) walk(ch, conditional, in_hoisted || hoisted);
  };
  walk(e, false, false);
  return why;
}

// The warp function of __device__ function `g` (made once): "" where it has one, else why not.
std::string Collector::SimtDeviceFn(const FunctionDecl* g) {
  const FunctionDecl* def = g->getDefinition();
  if (def == nullptr) return "its definition is not in the program";
  if (auto it = simt_fn_.find(def); it != simt_fn_.end())
    return it->second == "?" ? "a recursive call" : it->second;
  simt_fn_[def] = "?";
  std::string why;
  if (isa<CXXMethodDecl>(def))
    why = "a member function (yet)";
  else if (def->isTemplated() || def->getTemplateSpecializationInfo() != nullptr)
    why = "a function template (yet)";
  else if (def->isVariadic())
    why = "a variadic function";
  const auto* body = dyn_cast_or_null<CompoundStmt>(def->getBody());
  const CharSourceRange fr = FileRange(def->getSourceRange());
  if (why.empty() && (body == nullptr || fr.isInvalid())) why = "written by a macro";
  if (why.empty() && !def->getReturnType()->isVoidType() &&
      (def->getReturnType()->isReferenceType() ||
       def->getReturnType()->getAsCXXRecordDecl() != nullptr))
    why = "it returns a reference or a class (yet)";
  SimtKernel k;
  k.f = def;
  k.device = true;
  std::string params;
  PrintingPolicy pp = ctx_.getPrintingPolicy();
  pp.SuppressTagKeyword = true;
  pp.FullyQualifiedName = true;
  for (const ParmVarDecl* p : def->parameters()) {
    if (!why.empty()) break;
    if (p->getType()->isReferenceType()) {
      why = "a reference parameter (yet)";
      break;
    }
    const std::string name = k.Name("pa");
    if (!p->getName().empty()) k.lanes[p] = name;
    params += ", ::ws::simt::Lanes<std::remove_cv_t<" +
              p->getType().getUnqualifiedType().getAsString(pp) + ">>& " + name;
  }
  if (why.empty()) {
    for (const Numbered& n : numbered_) {
      if (n.a.begin >= Offset(fr.getBegin()) && n.a.end <= Offset(fr.getEnd()) &&
          (n.a.local || n.a.call)) {
        why = std::string(n.a.local ? "a thread's own array in local memory" : "a texture fetch") +
              " on line " + std::to_string(n.a.line) + " (yet)";
        break;
      }
    }
  }
  if (why.empty()) why = SimtCheckStmt(body, k, 0);
  std::string text;
  if (why.empty() && !SimtStmt(body, k, text)) why = "a construct the SIMT rewrite missed";
  if (!why.empty()) {
    simt_fn_[def] = why;
    return why;
  }
  const std::string ret = def->getReturnType()->isVoidType()
                              ? ""
                              : ", ::ws::simt::Lanes<std::remove_cv_t<" +
                                    def->getReturnType().getUnqualifiedType().getAsString(pp) +
                                    ">>* ws_ret";
  std::string pretty = PredefinedExpr::ComputeName(PredefinedExpr::PrettyFunction, def);
  for (std::size_t at = 0; (at = pretty.find(" *", at)) != std::string::npos;) pretty.erase(at, 1);
  std::string fn = "\n#if defined(WS_SIMT)\n[[maybe_unused]] static inline void " +
                   def->getName().str() + "__ws_warp(::ws::simt::Warp& ws_W" + ret + params +
                   ") { [[maybe_unused]] static constexpr const char ws_pretty[] = \"" +
                   CString(pretty) + "\"; ::ws::simt::Frame ws_frame(ws_W); " + text +
                   "}\n#endif\n";
  fn += "#line " + std::to_string(sm_.getSpellingLineNumber(fr.getEnd())) + " \"" +
        CString(DisplayName(sm_.getFileID(fr.getEnd()))) + "\"\n";
  const unsigned at = Offset(fr.getEnd());
  edits_.push_back({at, at, fn, 0, 0});
  simt_fn_[def] = "";
  return "";
}

std::string Collector::SimtCheckStmt(const Stmt* s, SimtKernel& k, int loops) {
  if (s == nullptr) return "";
  auto line = [&] { return std::to_string(sm_.getExpansionLineNumber(s->getBeginLoc())); };
  if (const auto* c = dyn_cast<CompoundStmt>(s)) {
    for (const Stmt* x : c->body())
      if (std::string r = SimtCheckStmt(x, k, loops); !r.empty()) return r;
    return "";
  }
  if (isa<NullStmt>(s) || isa<BreakStmt>(s) || isa<ContinueStmt>(s)) return "";
  if (const auto* a = dyn_cast<AttributedStmt>(s)) return SimtCheckStmt(a->getSubStmt(), k, loops);
  if (const auto* r = dyn_cast<ReturnStmt>(s)) {
    if (r->getRetValue() != nullptr && !k.device) return "a return with a value on line " + line();
    if (r->getRetValue() != nullptr) return SimtCheckExpr(r->getRetValue(), k);
    return "";
  }
  if (const auto* d = dyn_cast<DeclStmt>(s)) {
    bool uniform = false, lane = false;
    for (const Decl* x : d->decls()) {
      const auto* v = dyn_cast<VarDecl>(x);
      if (v == nullptr) {
        if (isa<TypedefNameDecl>(x) || isa<StaticAssertDecl>(x)) {
          uniform = true;
          continue;
        }
        return "a local declaration that is not a variable on line " + line();
      }
      if (v->isStaticLocal() || v->hasAttr<CUDASharedAttr>() || v->hasExternalStorage() ||
          v->isConstexpr() ||
          (v->getType().isConstQualified() && v->isUsableInConstantExpressions(ctx_))) {
        uniform = true;
        continue;
      }
      lane = true;
      const QualType t = v->getType();
      if (t->isReferenceType()) return "a reference variable on line " + line();
      if (t->isVariableArrayType() || t->isIncompleteArrayType())
        return "an array of run-time length on line " + line();
      if (t->getContainedAutoType() != nullptr && t->isDependentType())
        return "an auto variable of a template's type on line " + line() + " (yet)";
      if (t->isDependentType()) continue;  // as written (T); sizes are the instantiations'
      if (const TagDecl* tag = t->getAsTagDecl();
          tag != nullptr && (tag->getDeclContext()->isFunctionOrMethod() || tag->getName().empty()))
        return "a variable of a type declared in the kernel on line " + line();
      if (const CXXRecordDecl* rec = t->getBaseElementTypeUnsafe()->getAsCXXRecordDecl();
          rec != nullptr && (!rec->hasDefaultConstructor() || !rec->isTriviallyCopyable()))
        return "a variable of a class type that is not trivially copyable on line " + line();
    }
    if (uniform && lane)
      return "a declaration of shared and per-thread variables on line " + line();
    if (lane) {
      for (const Decl* x : d->decls()) {
        const auto* v = cast<VarDecl>(x);
        k.lanes[v] = k.Name("v");
        if (!v->getType()->isDependentType() && !v->getType()->isIncompleteType())
          k.bytes +=
              32 * static_cast<std::uint64_t>(ctx_.getTypeSizeInChars(v->getType()).getQuantity());
      }
    }
    return SimtCheckExpr(s, k);
  }
  if (const auto* i = dyn_cast<IfStmt>(s)) {
    if (i->getInit() != nullptr || i->getConditionVariable() != nullptr)
      return "an if with a declaration on line " + line();
    if (i->isConsteval()) return "if consteval on line " + line();
    if (!i->isConstexpr())
      if (std::string r = SimtCheckExpr(i->getCond(), k); !r.empty()) return r;
    if (std::string r = SimtCheckStmt(i->getThen(), k, loops); !r.empty()) return r;
    return SimtCheckStmt(i->getElse(), k, loops);
  }
  if (const auto* f = dyn_cast<ForStmt>(s)) {
    if (f->getConditionVariable() != nullptr) return "a for with a declaration in its condition";
    if (std::string r = SimtCheckStmt(f->getInit(), k, loops); !r.empty()) return r;
    if (f->getCond() != nullptr)
      if (std::string r = SimtCheckExpr(f->getCond(), k); !r.empty()) return r;
    if (f->getInc() != nullptr)
      if (std::string r = SimtCheckExpr(f->getInc(), k); !r.empty()) return r;
    return SimtCheckStmt(f->getBody(), k, loops + 1);
  }
  if (const auto* w = dyn_cast<WhileStmt>(s)) {
    if (w->getConditionVariable() != nullptr) return "a while with a declaration on line " + line();
    if (std::string r = SimtCheckExpr(w->getCond(), k); !r.empty()) return r;
    return SimtCheckStmt(w->getBody(), k, loops + 1);
  }
  if (const auto* d = dyn_cast<DoStmt>(s)) {
    if (std::string r = SimtCheckExpr(d->getCond(), k); !r.empty()) return r;
    return SimtCheckStmt(d->getBody(), k, loops + 1);
  }
  if (const auto* e = dyn_cast<Expr>(s)) {
    if (const auto* c = dyn_cast<CallExpr>(e->IgnoreParenImpCasts());
        c != nullptr && NameOf(c->getDirectCallee()) == "__syncthreads")
      return "";
    if (const Expr* sync = BlockSync(e)) {  // its group: a variable or this_thread_block()
      const auto* m = dyn_cast<CXXMemberCallExpr>(sync);
      const Expr* group =
          m != nullptr ? m->getImplicitObjectArgument() : cast<CallExpr>(sync)->getArg(0);
      group = group->IgnoreParenImpCasts();
      if (isa<DeclRefExpr>(group)) return "";
      if (const auto* c = dyn_cast<CallExpr>(group);
          c != nullptr && NameOf(c->getDirectCallee()) == "this_thread_block")
        return "";
      return "a thread_block's sync() on line " + line() + " whose group is an expression (yet)";
    }
    return SimtCheckExpr(e, k);
  }
  if (isa<SwitchStmt>(s)) return "a switch on line " + line() + " (yet)";
  if (isa<GotoStmt>(s) || isa<LabelStmt>(s)) return "a goto or label on line " + line();
  if (isa<CXXForRangeStmt>(s)) return "a range-based for on line " + line() + " (yet)";
  if (isa<GCCAsmStmt>(s) || isa<MSAsmStmt>(s)) return "inline PTX on line " + line() + " (yet)";
  return std::string("a ") + s->getStmtClassName() + " on line " + line();
}

// The text of [b, e) as the warp function writes it: the edits inside it (instance markers left
// out, accesses with their slots, FLOP counts on the warp, threadIdx the lane's), inside a loop
// over the running lanes with the variables it names bound to the lane's values.
bool Collector::SimtLeaf(SourceLocation b, SourceLocation e, const Stmt* of, SimtKernel& k,
                         const std::string& prefix, const std::string& suffix, std::string& out) {
  const unsigned rb = Offset(b), re = Offset(e);
  std::vector<Edit> list;
  // Calls of __device__ functions' warp functions first, in source order: each argument into a
  // Lanes of its own (a statement of its own), the call once for the warp, and the call's place
  // in the statement reads the lane's result.
  std::vector<const CallExpr*> calls;
  {
    std::vector<const Stmt*> todo = {of};
    while (!todo.empty()) {
      const Stmt* x = todo.back();
      todo.pop_back();
      if (const auto* c = dyn_cast<CallExpr>(x); c != nullptr && k.hoist.count(c) > 0)
        calls.push_back(c);
      for (const Stmt* ch : x->children())
        if (ch != nullptr) todo.push_back(ch);
    }
    std::sort(calls.begin(), calls.end(), [&](const CallExpr* x, const CallExpr* y) {
      return Offset(x->getBeginLoc()) < Offset(y->getBeginLoc());
    });
  }
  bool whole = false;  // the statement is the call alone
  for (const CallExpr* c : calls) {
    if (k.meetings.count(c) > 0) {  // a warp-level intrinsic: noted, met, then each lane's result
      const FunctionDecl* fn = c->getDirectCallee();
      const CharSourceRange cr = FileRange(c->getSourceRange());
      const CharSourceRange callee = FileRange(c->getCallee()->getSourceRange());
      if (cr.isInvalid() || callee.isInvalid()) return false;
      PrintingPolicy pp = ctx_.getPrintingPolicy();
      pp.SuppressTagKeyword = true;
      pp.FullyQualifiedName = true;
      std::string args;
      for (unsigned i = 0; i < c->getNumArgs(); ++i) {
        const Expr* a = c->getArg(i);
        if (isa<CXXDefaultArgExpr>(a)) break;  // the line and file: the call's own, below
        const CharSourceRange ar = FileRange(a->getSourceRange());
        if (ar.isInvalid() || i >= fn->getNumParams()) return false;
        const std::string name = k.Name("a");
        out += "::ws::simt::Lanes<std::remove_cv_t<" +
               fn->getParamDecl(i)->getType().getUnqualifiedType().getAsString(pp) + ">> " + name +
               "; ";
        if (!SimtLeaf(ar.getBegin(), ar.getEnd(), a, k, name + "[ws_l] = (", ");", out))
          return false;
        args += (args.empty() ? "" : ", ") + name + "[ws_l]";
      }
      const std::string call =
          RawText(Offset(callee.getBegin()), Offset(callee.getEnd())) + "(" + args + ")";
      const std::string at = "\n#line " + std::to_string(sm_.getSpellingLineNumber(cr.getBegin())) +
                             " \"" + CString(DisplayName(sm_.getFileID(cr.getBegin()))) + "\"\n";
      std::string result;
      if (!fn->getReturnType()->isVoidType()) {
        result = k.Name("r");
        out += "::ws::simt::Lanes<std::remove_cv_t<" +
               fn->getReturnType().getUnqualifiedType().getAsString(pp) + ">> " + result + "; ";
      }
      out += "{ ::ws::simt::WarpCall ws_wc(ws_W);" + at + "WS_SIMT_LANES(ws_W) (void)" + call +
             "; WS_SIMT_END(ws_W, 0u) ws_wc.Meet();";
      if (!result.empty())
        out +=
            at + "WS_SIMT_LANES(ws_W) " + result + "[ws_l] = " + call + "; WS_SIMT_END(ws_W, 0u)";
      out += " } ";
      whole = whole || c == dyn_cast<Expr>(of) ||
              (isa<Expr>(of) && cast<Expr>(of)->IgnoreParenImpCasts() == c);
      list.push_back({Offset(cr.getBegin()) - rb, Offset(cr.getEnd()) - rb,
                      result.empty() ? std::string("(void)0") : result + "[ws_l]", 2, 0});
      continue;
    }
    const FunctionDecl* g = c->getDirectCallee()->getDefinition();
    const CharSourceRange cr = FileRange(c->getSourceRange());
    if (cr.isInvalid()) return false;
    PrintingPolicy pp = ctx_.getPrintingPolicy();
    pp.SuppressTagKeyword = true;
    pp.FullyQualifiedName = true;
    std::string args;
    for (unsigned i = 0; i < c->getNumArgs(); ++i) {
      const Expr* a = c->getArg(i);
      const CharSourceRange ar = FileRange(a->getSourceRange());
      if (ar.isInvalid() || i >= g->getNumParams()) return false;
      const std::string name = k.Name("a");
      out += "::ws::simt::Lanes<std::remove_cv_t<" +
             g->getParamDecl(i)->getType().getUnqualifiedType().getAsString(pp) + ">> " + name +
             "; ";
      if (!SimtLeaf(ar.getBegin(), ar.getEnd(), a, k, name + "[ws_l] = (", ");", out)) return false;
      args += ", " + name;
    }
    std::string result;
    if (!g->getReturnType()->isVoidType()) {
      result = k.Name("r");
      out += "::ws::simt::Lanes<std::remove_cv_t<" +
             g->getReturnType().getUnqualifiedType().getAsString(pp) + ">> " + result + "; ";
    }
    out += g->getName().str() + "__ws_warp(ws_W" + (result.empty() ? "" : ", &" + result) + args +
           "); ";
    whole = whole || c == dyn_cast<Expr>(of) ||
            (isa<Expr>(of) && cast<Expr>(of)->IgnoreParenImpCasts() == c);
    list.push_back({Offset(cr.getBegin()) - rb, Offset(cr.getEnd()) - rb,
                    result.empty() ? std::string("(void)0") : result + "[ws_l]", 2, 0});
  }
  if (whole && prefix.empty()) return true;  // `g(x);`: nothing more to run
  for (const Edit& x : edits_) {
    if (x.role == 1 || x.role == 2) continue;
    const bool inside =
        x.begin == x.end ? x.begin >= rb && x.begin <= re : x.begin >= rb && x.end <= re;
    if (!inside) {
      if (x.begin < re && x.end > rb && x.begin != x.end) return false;  // straddles
      continue;
    }
    Edit y = x;
    if (x.text == "WS_DEVICE_ASSERT") y.text = "WS_SIMT_ASSERT";  // the kernel's name in it
    if (x.role == 3) {  // "(::ws::prog::CountFlops(2u), (" -> "(ws_W.flops += 2u, ("
      const std::size_t open = x.text.find("CountFlops(");
      const std::size_t close = x.text.find(')', open);
      y.text = "(ws_W.flops += " + x.text.substr(open + 11, close - open - 11) + ", (";
    }
    y.begin -= rb;
    y.end -= rb;
    list.push_back(std::move(y));
  }
  unsigned slots = 0;
  bool writes = false;  // a store or an atomic: its value is read after the lane's turn
  for (const Numbered& n : numbered_) {
    const Access& a = n.a;
    if (a.begin < rb || a.end > re) continue;
    if (a.local || a.call) return false;  // checked before: not here
    const char* fn = a.access == ProgramAccess::kLoad        ? "Ld"
                     : a.access == ProgramAccess::kStore     ? "St"
                     : a.access == ProgramAccess::kLoadStore ? "LdSt"
                                                             : "At";
    const std::string slot = std::to_string(slots) + "u, ";
    writes = writes || a.access != ProgramAccess::kLoad;
    slots += a.access == ProgramAccess::kLoadStore ? 2 : 1;
    const unsigned span = a.end - a.begin;
    const std::string head = std::string("::ws::simt::") + fn + "<" + n.place +
                             (a.several ? ", ::ws::prog::kOpSeveral" : "") + ">(ws_W, ws_l, " +
                             slot;
    if (a.pointer) {
      list.push_back({a.begin - rb, a.begin - rb, head + "(", 1, span});
      list.push_back({a.end - rb, a.end - rb, "))", 0, span});
    } else {
      list.push_back({a.begin - rb, a.begin - rb, "(*" + head + "&(", 1, span});
      list.push_back({a.end - rb, a.end - rb, ")))", 0, span});
    }
  }
  if (slots > kMaxSlots) return false;
  // Does it call something that reads the running thread (printf, clock64, assert, atomics, a
  // __device__ function of the program)? Then each lane's turn enters the lane.
  bool ctx = false;
  std::set<const VarDecl*> bound;
  std::string binds;
  std::vector<const Stmt*> todo = {of};
  while (!todo.empty()) {
    const Stmt* s = todo.back();
    todo.pop_back();
    if (const auto* d = dyn_cast<DeclRefExpr>(s)) {
      const auto* v = dyn_cast<VarDecl>(d->getDecl());
      auto it = v != nullptr ? k.lanes.find(v) : k.lanes.end();
      bool declared_here = false;
      if (const auto* ds = dyn_cast<DeclStmt>(of))
        for (const Decl* x : ds->decls()) declared_here = declared_here || x == v;
      if (it != k.lanes.end() && !declared_here && bound.insert(v).second)
        binds += "auto& " + v->getName().str() + " = " + it->second + "[ws_l]; ";
    }
    if (const auto* c = dyn_cast<CallExpr>(s)) {
      const FunctionDecl* callee = c->getDirectCallee();
      const std::string n = NameOf(callee);
      if (callee == nullptr || DeviceLibraryMacro(callee) != nullptr || IsAtomic(callee) ||
          n == "__assert_fail" || n == "clock64" || InNamespace(callee, "ws") ||
          IsProgramFile(sm_.getFileID(sm_.getExpansionLoc(callee->getLocation()))))
        ctx = true;
    }
    if (isa<CXXConstructExpr>(s) || isa<CXXOperatorCallExpr>(s) || isa<CXXMemberCallExpr>(s)) {
      const Decl* callee = nullptr;
      if (const auto* c = dyn_cast<CXXConstructExpr>(s)) callee = c->getConstructor();
      if (const auto* c = dyn_cast<CallExpr>(s)) callee = c->getCalleeDecl();
      if (callee != nullptr &&
          IsProgramFile(sm_.getFileID(sm_.getExpansionLoc(callee->getLocation()))))
        ctx = true;
    }
    for (const Stmt* c : s->children())
      if (c != nullptr) todo.push_back(c);
  }
  const std::string text = ApplyEdits(RawText(rb, re), std::move(list));
  const std::string n = std::to_string(slots) + "u";
  // At the statement's own line (__LINE__ in assert, the compiler's messages).
  out += "\n#line " + std::to_string(sm_.getSpellingLineNumber(b)) + " \"" +
         CString(DisplayName(sm_.getFileID(b))) + "\"\n";
  out += ctx ? "WS_SIMT_LANES_CTX(ws_W) " : "WS_SIMT_LANES(ws_W) ";
  out += binds + prefix + text + suffix;
  const std::string end = std::string(writes ? "WS_SIMT_END_W" : "WS_SIMT_END") +
                          (ctx ? "_CTX(ws_W, " : "(ws_W, ") + n + ")";
  out += " " + end;
  return true;
}

// The lanes where condition `c` holds, into a new mask variable (its name returned).
std::string Collector::SimtCond(const Expr* c, SimtKernel& k, const std::string& mask,
                                std::string& out) {
  const CharSourceRange r = FileRange(c->getSourceRange());
  if (r.isInvalid()) return "";
  out += "::ws::simt::Mask " + mask + " = 0u; ";
  if (!SimtLeaf(r.getBegin(), r.getEnd(), c, k, "if (static_cast<bool>(",
                ")) " + mask + " |= 1u << ws_l;", out))
    return "";
  return mask;
}

bool Collector::SimtDecl(const DeclStmt* d, SimtKernel& k, std::string& out) {
  const CharSourceRange r = FileRange(d->getSourceRange());
  if (r.isInvalid()) return false;
  const auto* first = dyn_cast<VarDecl>(*d->decl_begin());
  if (first == nullptr || k.lanes.count(first) == 0) {  // shared, static, constant: as written
    std::vector<Edit> list;
    const unsigned rb = Offset(r.getBegin()), re = Offset(r.getEnd());
    for (const Edit& x : edits_) {
      if (x.role == 1) continue;
      if (x.begin == x.end ? (x.begin >= rb && x.begin <= re) : (x.begin >= rb && x.end <= re)) {
        if (x.role == 2) return false;  // an access in a shared array's initializer
        Edit y = x;
        y.begin -= rb;
        y.end -= rb;
        list.push_back(std::move(y));
      }
    }
    out += ApplyEdits(RawText(rb, re), std::move(list)) + " ";
    return true;
  }
  PrintingPolicy pp = ctx_.getPrintingPolicy();
  pp.SuppressTagKeyword = true;
  pp.FullyQualifiedName = true;
  bool init = false;
  std::string puts;
  for (const Decl* x : d->decls()) {
    const auto* v = cast<VarDecl>(x);
    const std::string type = v->getType().getUnqualifiedType().getAsString(pp);
    if (type.find("(anonymous") != std::string::npos || type.find("(lambda") != std::string::npos)
      return false;
    out += "::ws::simt::Lanes<std::remove_cv_t<" + type + ">> " + k.lanes[v] + "; ";
    init = init || v->hasInit();
    puts += " ::ws::simt::Put(" + k.lanes[v] + "[ws_l], " + v->getName().str() + ");";
  }
  if (!init) return true;
  return SimtLeaf(r.getBegin(), r.getEnd(), d, k, "", puts, out);
}

bool Collector::SimtStmt(const Stmt* s, SimtKernel& k, std::string& out) {
  if (s == nullptr) return true;
  if (const auto* c = dyn_cast<CompoundStmt>(s)) {
    out += "{ ";
    for (const Stmt* x : c->body())
      if (!SimtStmt(x, k, out)) return false;
    out += "} ";
    return true;
  }
  if (isa<NullStmt>(s)) return true;
  if (const auto* a = dyn_cast<AttributedStmt>(s)) return SimtStmt(a->getSubStmt(), k, out);
  if (isa<BreakStmt>(s)) {
    out += "::ws::simt::Break(ws_W); ";
    return true;
  }
  if (isa<ContinueStmt>(s)) {
    out += "::ws::simt::Continue(ws_W); ";
    return true;
  }
  if (const auto* r = dyn_cast<ReturnStmt>(s)) {
    if (!k.device) {
      out += "::ws::simt::Return(ws_W); ";
      return true;
    }
    if (const Expr* v = r->getRetValue()) {  // each running lane's value, then the lanes leave
      const CharSourceRange vr = FileRange(v->getSourceRange());
      if (vr.isInvalid() ||
          !SimtLeaf(vr.getBegin(), vr.getEnd(), v, k, "(*ws_ret)[ws_l] = (", ");", out))
        return false;
    }
    out += " ::ws::simt::FnReturn(ws_W); ";
    return true;
  }
  if (const auto* d = dyn_cast<DeclStmt>(s)) return SimtDecl(d, k, out);
  if (const auto* i = dyn_cast<IfStmt>(s)) {
    if (i->isConstexpr()) {
      const CharSourceRange r = FileRange(i->getCond()->getSourceRange());
      if (r.isInvalid()) return false;
      out += "if constexpr (" + RawText(Offset(r.getBegin()), Offset(r.getEnd())) + ") { ";
      if (!SimtStmt(i->getThen(), k, out)) return false;
      out += "} else { ";
      if (!SimtStmt(i->getElse(), k, out)) return false;
      out += "} ";
      return true;
    }
    out += "{ ";
    const std::string c = SimtCond(i->getCond(), k, k.Name("c"), out);
    if (c.empty()) return false;
    const std::string name = k.Name("if");
    out += " ::ws::simt::If " + name + "(ws_W, " + c + "); if (" + name + ".Then()) { ";
    if (!SimtStmt(i->getThen(), k, out)) return false;
    out += "} ";
    if (i->getElse() != nullptr) {
      out += "if (" + name + ".Else()) { ";
      if (!SimtStmt(i->getElse(), k, out)) return false;
      out += "} ";
    }
    out += "} ";
    return true;
  }
  const Stmt* body = nullptr;
  const Expr* cond = nullptr;
  const Stmt* init = nullptr;
  const Expr* inc = nullptr;
  bool is_do = false;
  if (const auto* f = dyn_cast<ForStmt>(s)) {
    body = f->getBody();
    cond = f->getCond();
    init = f->getInit();
    inc = f->getInc();
  } else if (const auto* w = dyn_cast<WhileStmt>(s)) {
    body = w->getBody();
    cond = w->getCond();
  } else if (const auto* d = dyn_cast<DoStmt>(s)) {
    body = d->getBody();
    cond = d->getCond();
    is_do = true;
  }
  if (body != nullptr) {
    const std::string loop = k.Name("lp");
    out += "{ ";
    if (!SimtStmt(init, k, out)) return false;
    out += "::ws::simt::Loop " + loop + "(ws_W); for (;;) { ";
    auto test = [&]() -> bool {
      if (cond == nullptr) {
        out += "if (!" + loop + ".Cond(ws_W.mask)) break; ";
        return true;
      }
      const std::string c = SimtCond(cond, k, k.Name("c"), out);
      if (c.empty()) return false;
      out += " if (!" + loop + ".Cond(" + c + ")) break; ";
      return true;
    };
    if (!is_do && !test()) return false;
    if (!SimtStmt(body, k, out)) return false;
    out += loop + ".Next(); ";
    if (inc != nullptr) {
      const CharSourceRange r = FileRange(inc->getSourceRange());
      if (r.isInvalid() || !SimtLeaf(r.getBegin(), r.getEnd(), inc, k, "", ";", out)) return false;
    }
    if (is_do && !test()) return false;
    out += "} } ";
    return true;
  }
  if (const auto* e = dyn_cast<Expr>(s)) {
    if (const Expr* sync = BlockSync(e)) {  // as the shim's sync(): its place by the call's line
      const unsigned line = sm_.getExpansionLineNumber(sync->getExprLoc());
      out +=
          "::ws::simt::Barrier(ws_W, ::std::integral_constant<unsigned int, "
          "::ws::prog::PlaceOf(__FILE__, " +
          std::to_string(line) + "u)>::value); ";
      return true;
    }
    if (const auto* c = dyn_cast<CallExpr>(e->IgnoreParenImpCasts());
        c != nullptr && NameOf(c->getDirectCallee()) == "__syncthreads") {
      const unsigned line = sm_.getExpansionLineNumber(s->getBeginLoc());
      out +=
          "::ws::simt::Barrier(ws_W, ::std::integral_constant<unsigned int, "
          "::ws::prog::PlaceOf(__FILE__, " +
          std::to_string(line) + "u)>::value); ";
      return true;
    }
    const CharSourceRange r = FileRange(e->getSourceRange());
    if (r.isInvalid()) return false;
    return SimtLeaf(r.getBegin(), r.getEnd(), e, k, "", ";", out);
  }
  return false;
}

void Collector::EmitWarpFunctions() {
  for (const FunctionDecl* f : simt_candidates_) {
    // A template's specializations share its text and so its warp function (a template too).
    if (f->getTemplateSpecializationKind() == TSK_ImplicitInstantiation) continue;
    std::string why;
    const FunctionTemplateDecl* ftd = f->getDescribedFunctionTemplate();
    if (f->getTemplateSpecializationKind() == TSK_ExplicitSpecialization)
      why = "an explicit specialization of a kernel template (yet)";
    else if (f->isTemplated() && ftd == nullptr)
      why = "a kernel inside a template (yet)";
    SimtKernel k;
    k.f = f;
    k.pattern = ftd != nullptr;
    // A template's calls are named in its instantiations: each is checked as the text is shared.
    std::size_t hoisted = 0;  // the most calls of warp functions an instantiation makes
    if (why.empty() && ftd != nullptr) {
      for (const FunctionDecl* spec : ftd->specializations()) {
        if (spec->getBody() == nullptr) continue;
        SimtKernel each;
        each.f = spec;
        why = SimtCheckStmt(spec->getBody(), each, 0);
        hoisted = std::max(hoisted, each.hoist.size());
        if (!why.empty()) break;
      }
    }
    const auto* body = dyn_cast_or_null<CompoundStmt>(f->getBody());
    const CharSourceRange fr = FileRange(f->getSourceRange());
    if (why.empty() && (body == nullptr || fr.isInvalid())) why = "a kernel written by a macro";
    if (why.empty()) {
      for (const Numbered& n : numbered_) {
        if (n.a.begin >= Offset(fr.getBegin()) && n.a.end <= Offset(fr.getEnd()) &&
            (n.a.local || n.a.call)) {
          why =
              std::string(n.a.local ? "a thread's own array in local memory" : "a texture fetch") +
              " on line " + std::to_string(n.a.line) + " (yet)";
          break;
        }
      }
    }
    if (why.empty()) why = SimtCheckStmt(body, k, 0);
    // A call the template's text names by a dependent name is resolved in its instantiations
    // only: where one calls a warp function there, the text cannot say which (yet).
    if (why.empty() && k.hoist.size() < hoisted)
      why =
          "a call of a __device__ function that accesses memory, by a name that depends on the "
          "template's arguments (yet)";
    // Parameters the kernel changes (or takes the address of) are the thread's own too.
    std::string params, copies;
    for (const ParmVarDecl* p : f->parameters()) {
      const CharSourceRange pr = FileRange(p->getSourceRange());
      if (pr.isInvalid()) {
        if (why.empty()) why = "a parameter written by a macro";
        continue;
      }
      params += ", " + RawText(Offset(pr.getBegin()), Offset(pr.getEnd()));
      if (p->getName().empty()) continue;
      const bool changed = body != nullptr && Changes(body, p);
      if (!changed) continue;
      PrintingPolicy pp = ctx_.getPrintingPolicy();
      pp.SuppressTagKeyword = true;
      pp.FullyQualifiedName = true;
      const std::string name = k.Name("v");
      k.lanes[p] = name;
      if (!p->getType()->isDependentType() && !p->getType()->isIncompleteType())
        k.bytes +=
            32 * static_cast<std::uint64_t>(ctx_.getTypeSizeInChars(p->getType()).getQuantity());
      copies += "::ws::simt::Lanes<std::remove_cv_t<" +
                p->getType().getUnqualifiedType().getAsString(pp) + ">> " + name +
                "; for (int ws_i = 0; ws_i < 32; ++ws_i) ::ws::simt::Put(" + name + "[ws_i], " +
                p->getName().str() + "); ";
    }
    if (why.empty() && k.bytes > kMaxLaneBytes)
      why = "the thread's variables take " + std::to_string(k.bytes / 32) +
            " bytes, more than a warp's stack holds for 32 lanes";
    std::string text;
    if (why.empty() && !SimtStmt(body, k, text)) why = "a construct the SIMT rewrite missed";
    if (!why.empty()) {
      simt_no_[f] = why;
      continue;
    }
    const std::string name = f->getName().str() + "__ws_warp";
    const unsigned end_line = sm_.getSpellingLineNumber(fr.getEnd());
    // The kernel's name as g++'s __PRETTY_FUNCTION__ writes it (assert's message).
    std::string pretty = PredefinedExpr::ComputeName(PredefinedExpr::PrettyFunction, f);
    for (std::size_t at = 0; (at = pretty.find(" *", at)) != std::string::npos;)
      pretty.erase(at, 1);
    for (std::size_t at = 0; (at = pretty.find(" &", at)) != std::string::npos;)
      pretty.erase(at, 1);
    std::string header;
    if (ftd != nullptr) {
      const CharSourceRange tr = FileRange(ftd->getTemplateParameters()->getSourceRange());
      if (tr.isInvalid()) {
        simt_no_[f] = "a template whose parameters a macro writes";
        continue;
      }
      header = RawText(Offset(tr.getBegin()), Offset(tr.getEnd())) + " ";
    }
    std::string fn = "\n#if defined(WS_SIMT)\n" + header + "[[maybe_unused]] static inline void " +
                     name + "(::ws::simt::Warp& ws_W" + params +
                     ") { [[maybe_unused]] static constexpr const char ws_pretty[] = \"" +
                     CString(pretty) + "\"; " + copies + text + "}\n#endif\n";
    fn += "#line " + std::to_string(end_line) + " \"" +
          CString(DisplayName(sm_.getFileID(fr.getEnd()))) + "\"\n";
    const unsigned at = Offset(fr.getEnd());
    edits_.push_back({at, at, fn, 0, 0});
    simt_[f] = name;
  }
  for (std::size_t i = 0; i < kernel_table_decls_.size(); ++i) {
    const FunctionDecl* f = kernel_table_decls_[i];
    const FunctionDecl* key = f;
    if (f->getTemplateSpecializationKind() == TSK_ImplicitInstantiation &&
        f->getTemplateInstantiationPattern() != nullptr)
      key = f->getTemplateInstantiationPattern();
    auto it = simt_.find(key);
    const std::string& address = out_->kernel_table[i];  // "&kern" or "&ns::kern<float, 64>"
    if (it != simt_.end() && address.rfind("&", 0) == 0) {
      // The warp function's specialization by the same arguments.
      std::string warp = address;
      const std::size_t open = warp.find('<');
      warp.insert(open == std::string::npos ? warp.size() : open, "__ws_warp");
      out_->kernel_table_warp.push_back(warp);
      out_->kernel_table_simt.push_back("");
    } else {
      out_->kernel_table_warp.push_back("");
      auto no = simt_no_.find(key);
      out_->kernel_table_simt.push_back(no != simt_no_.end() ? no->second
                                        : it != simt_.end()  ? "an overloaded kernel (yet)"
                                                             : "no warp function (yet)");
    }
  }
}

}  // namespace ws::rewrite_internal
