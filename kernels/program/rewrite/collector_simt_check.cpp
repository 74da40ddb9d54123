// What a kernel may hold on the SIMT path, and the warp functions of the __device__ functions it
// calls (collector_simt.h; the warp functions' text: collector_simt.cpp).
#include <clang/AST/ParentMapContext.h>

#include <functional>

#include "collector_simt.h"

namespace ws::rewrite_internal {

namespace {

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

}  // namespace

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

bool InNamespace(const Decl* d, const char* ns) {
  for (const DeclContext* c = d->getDeclContext(); c != nullptr; c = c->getParent()) {
    if (const auto* n = dyn_cast<NamespaceDecl>(c)) {
      if (n->getName() == ns) return true;
    }
  }
  return false;
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
  // A template's instantiation names the functions its text calls (the pattern's calls that
  // depend on its parameters name none: cg::reduce(group, ...) with a Group parameter).
  const Stmt* calls = def->getBody();
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
  std::vector<const Stmt*> todo = {calls != nullptr ? calls : body};
  while (!todo.empty()) {
    const Stmt* s = todo.back();
    todo.pop_back();
    if (const auto* c = dyn_cast<CallExpr>(s)) {
      const FunctionDecl* callee = c->getDirectCallee();
      const std::string n = NameOf(callee);
      if (n == "__syncthreads" || IsWarpIntrinsic(n) || n.rfind("__pipeline_", 0) == 0 ||
          (callee != nullptr && InNamespace(callee, "cuda")))
        return true;
      if (callee != nullptr &&
          (InNamespace(callee, "cooperative_groups") || InNamespace(callee, "nvcuda") ||
           n.rfind("tex1D", 0) == 0 || n.rfind("tex2D", 0) == 0 || n == "tex3D" ||
           n.rfind("texCubemap", 0) == 0))
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
    if (const auto* n = dyn_cast<CXXNewExpr>(s); n != nullptr && n->getNumPlacementArgs() == 0)
      return "the device heap (new) on line " + line(s) + " (yet)";
    if (isa<CXXDeleteExpr>(s)) return "the device heap (delete) on line " + line(s) + " (yet)";
    if (const auto* c = dyn_cast<CallExpr>(s)) {
      const FunctionDecl* callee = c->getDirectCallee();
      if (callee == nullptr && k.pattern) {  // a dependent name: as the instantiations name it
        if (auto it = k.resolved.find(c->getBeginLoc().getRawEncoding()); it != k.resolved.end()) {
          callee = it->second;
          k.callee[c] = callee;
        }
      }
      const std::string n = NameOf(callee);
      if (callee == nullptr && !isa<CXXPseudoDestructorExpr>(c->getCallee()) && !k.pattern)
        return "a call through a pointer on line " + line(s);
      if (n == "__syncthreads") return "__syncthreads() inside an expression on line " + line(s);
      // Which overrider a virtual call reaches is known only as it runs (newdelete's
      // Container<int>::push reaches Vector<int>::push, whose accesses the check never saw).
      if (const auto* m = dyn_cast_or_null<CXXMethodDecl>(callee);
          m != nullptr && m->isVirtual() && isa<CXXMemberCallExpr>(c))
        return "a virtual call on line " + line(s) + " (yet)";
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
      // wmma's calls meet the warp inside the shim (mma_sync) or act for every lane's
      // fragment at once: thread by thread.
      if (callee != nullptr && InNamespace(callee, "nvcuda"))
        return "nvcuda::wmma (" + n + ") on line " + line(s) + " (yet)";
      // A thread's asynchronous copies wait in its own queue until its wait (emu_async.cpp).
      if (n.rfind("__pipeline_", 0) == 0)
        return "an asynchronous copy (" + n + ") on line " + line(s) + " (yet)";
      if (callee != nullptr && InNamespace(callee, "cuda"))
        return "libcu++'s cuda::" + n + " on line " + line(s) + " (yet)";
      if (callee != nullptr && InNamespace(callee, "cooperative_groups") &&
          (n == "memcpy_async" || n == "wait" || n == "wait_prior"))
        return "an asynchronous copy (cooperative_groups::" + n + ") on line " + line(s) + " (yet)";
      if (MultiWarpTile(c))  // its sync is a barrier of several warps: thread by thread
        return "a tile of more than 32 threads on line " + line(s) + " (yet)";
      const TileCallKind tile = TileCall(c);
      if (tile == TileCallKind::kTileMeets) {  // as a warp-level intrinsic
        if (const auto* m = dyn_cast<MemberExpr>(c->getCallee()->IgnoreParenImpCasts());
            m != nullptr && m->isArrow())
          return "a tile's call through a pointer on line " + line(s) + " (yet)";
        for (unsigned i = 0; i < c->getNumArgs(); ++i) {
          const QualType t = c->getArg(i)->getType();
          if (!isa<CXXDefaultArgExpr>(c->getArg(i)) && !t->isDependentType() &&
              GroupClass(t).empty() && ctx_.getTypeSizeInChars(t).getQuantity() > 8)
            return n + "() of a value over 8 bytes on line " + line(s) + " (yet)";
        }
        k.hoist.insert(c);
        k.meetings.insert(c);
      }
      if (callee != nullptr && InNamespace(callee, "cooperative_groups") && !BlockQuery(callee) &&
          tile == TileCallKind::kNotTile &&
          !(isa<CXXConstructorDecl>(callee) &&
            GroupClass(QualType(cast<CXXConstructorDecl>(callee)->getParent()->getTypeForDecl(),
                                0)) == "thread_block"))
        return "cooperative groups on line " + line(s) +
               " (a thread_block's and a thread_block_tile's calls only, yet)";
      // (A texture fetch, tex1Dfetch, tex1D or tex2D, is a slot of its statement: TexLane.)
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
        const FunctionDecl* g = def != nullptr ? def : callee;
        for (unsigned i = 0; i < c->getNumArgs() && i < g->getNumParams(); ++i)
          if (ArrayReference(g->getParamDecl(i)) && !SharedArrayArgument(c->getArg(i)))
            return "a call of " + n + "() on line " + line(s) +
                   " that binds its array parameter to an array other than a __shared__ one (yet)";
        if (WarpFnName(callee, c, k).empty())
          return "a call of " + n + "() on line " + line(s) +
                 " whose template arguments depend on the caller's and are not written (yet)";
        k.hoist.insert(c);
        if (!k.pattern) k.resolved[c->getBeginLoc().getRawEncoding()] = callee;
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
  // A function template's specializations share its text, and so one warp function: a template
  // of the same parameters, made from the template's own text (its pattern).
  const FunctionTemplateDecl* ftd = nullptr;
  if (def->getTemplateSpecializationKind() == TSK_ImplicitInstantiation &&
      def->getTemplateInstantiationPattern() != nullptr) {
    def = def->getTemplateInstantiationPattern();
    ftd = def->getDescribedFunctionTemplate();
  }
  if (auto it = simt_fn_.find(def); it != simt_fn_.end())
    return it->second == "?" ? "a recursive call" : it->second;
  simt_fn_[def] = "?";
  std::string why;
  SimtKernel k;
  if (isa<CXXMethodDecl>(def))
    why = "a member function (yet)";
  else if (ftd == nullptr &&
           (def->isTemplated() || def->getTemplateSpecializationInfo() != nullptr))
    why = "a function template's explicit specialization or a function inside a template (yet)";
  else if (def->isVariadic())
    why = "a variadic function";
  std::size_t hoisted = 0;  // the most calls of warp functions a specialization makes
  if (why.empty() && ftd != nullptr) {
    k.pattern = true;
    why = SimtInstantiations(ftd, def->getBody(), /*device=*/true, k, &hoisted);
    if (why.empty() && def->getReturnType()->isDependentType())
      why = "a return type that depends on the template's arguments (yet)";
    for (const ParmVarDecl* p : def->parameters())
      if (why.empty() && p->getType()->isDependentType())
        why = "a parameter of a type that depends on the template's arguments (yet)";
  }
  const auto* body = dyn_cast_or_null<CompoundStmt>(def->getBody());
  const CharSourceRange fr = FileRange(def->getSourceRange());
  if (why.empty() && (body == nullptr || fr.isInvalid())) why = "written by a macro";
  if (why.empty() && !def->getReturnType()->isVoidType() &&
      (def->getReturnType()->isReferenceType() ||
       def->getReturnType()->getAsCXXRecordDecl() != nullptr))
    why = "it returns a reference or a class (yet)";
  k.f = def;
  k.device = true;
  std::string params;
  PrintingPolicy pp = ctx_.getPrintingPolicy();
  pp.SuppressTagKeyword = true;
  pp.FullyQualifiedName = true;
  for (const ParmVarDecl* p : def->parameters()) {
    if (!why.empty()) break;
    if (ArrayReference(p)) {  // the warp's one array: as written (its calls pass a shared one)
      const CharSourceRange pr = FileRange(p->getSourceRange());
      if (pr.isInvalid()) {
        why = "a parameter written by a macro";
        break;
      }
      params += ", " + RawText(Offset(pr.getBegin()), Offset(pr.getEnd()));
      continue;
    }
    if (p->getType()->isReferenceType()) {
      why = "a reference parameter (yet)";
      break;
    }
    const std::string name = k.Name("pa");
    if (!p->getName().empty()) k.lanes[p] = name;
    params += ", ::ws::simt::Lanes<std::remove_cv_t<" +
              p->getType().getUnqualifiedType().getAsString(pp) + ">>& " + name;
  }
  if (why.empty()) why = SimtLocalArrayWhy(fr);
  if (why.empty()) why = SimtCheckStmt(body, k, 0);
  if (why.empty() && k.hoist.size() < hoisted)
    why =
        "a call of a __device__ function that accesses memory, by a name that depends on the "
        "template's arguments (yet)";
  if (why.empty()) SimtUniform(body, k);
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
  std::string head;  // a template's: its parameters as written
  if (ftd != nullptr) {
    const CharSourceRange tr = FileRange(ftd->getTemplateParameters()->getSourceRange());
    if (tr.isInvalid()) {
      simt_fn_[def] = "a template's parameters written by a macro";
      return simt_fn_[def];
    }
    head = RawText(Offset(tr.getBegin()), Offset(tr.getEnd())) + " ";
  }
  std::string fn = "\n#if defined(WS_SIMT)\n" + head + "[[maybe_unused]] static inline void " +
                   def->getName().str() + "__ws_warp(::ws::simt::Warp& ws_W" + ret + params +
                   ") { [[maybe_unused]] static constexpr const char ws_pretty[] = \"" +
                   CString(pretty) + "\"; ::ws::simt::Frame ws_frame(ws_W); " + text +
                   "}\n#endif\n";
  fn += "#line " + std::to_string(sm_.getSpellingLineNumber(fr.getEnd())) + " \"" +
        CString(DisplayName(sm_.getFileID(fr.getEnd()))) + "\"\n";
  EmitWarp(Offset(fr.getEnd()), std::move(fn));
  simt_fn_[def] = "";
  return "";
}

std::string Collector::SimtLocalArrayWhy(const CharSourceRange& range) const {
  if (rq_.lesson_places)
    return "";  // a lesson's: a plain array of each lane (recorded on neither path)
  for (const Numbered& n : numbered_) {
    if (n.a.local && n.a.begin >= Offset(range.getBegin()) && n.a.end <= Offset(range.getEnd()))
      return "a thread's own array in local memory on line " + std::to_string(n.a.line) + " (yet)";
  }
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

}  // namespace ws::rewrite_internal
