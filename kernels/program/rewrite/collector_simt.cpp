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
#include <cstring>

#include "collector_simt.h"

namespace ws::rewrite_internal {
namespace {
// Where a load's kLater goes, once its statement is known to store nothing (SimtLeaf).
constexpr char kLaterMark[] = "\x01later\x01";
}  // namespace

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
      // A lane value of `type` made of expression `a` (each lane's turn): its name.
      auto lanes_of = [&](const Expr* a, QualType type, std::string* name) {
        const CharSourceRange ar = FileRange(a->getSourceRange());
        if (ar.isInvalid()) return false;
        *name = k.Name("a");
        out += "::ws::simt::Lanes<std::remove_cv_t<std::remove_reference_t<" +
               type.getUnqualifiedType().getAsString(pp) + ">>> " + *name + "; ";
        return SimtLeaf(ar.getBegin(), ar.getEnd(), a, k, *name + "[ws_l] = (", ");", out);
      };
      std::string args;
      for (unsigned i = 0; i < c->getNumArgs(); ++i) {
        const Expr* a = c->getArg(i);
        if (isa<CXXDefaultArgExpr>(a)) break;  // the line and file: the call's own, below
        std::string name;
        if (i >= fn->getNumParams() || !lanes_of(a, fn->getParamDecl(i)->getType(), &name))
          return false;
        args += (args.empty() ? "" : ", ") + name + "[ws_l]";
      }
      std::string call =
          RawText(Offset(callee.getBegin()), Offset(callee.getEnd())) + "(" + args + ")";
      if (const auto* m = dyn_cast<CXXMemberCallExpr>(c)) {  // a tile's: the lane's tile
        const Expr* object = m->getImplicitObjectArgument();
        std::string name;
        if (object == nullptr || !lanes_of(object, object->getType(), &name)) return false;
        call = name + "[ws_l]." + fn->getName().str() + "(" + args + ")";
      }
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
    const FunctionDecl* callee =
        c->getDirectCallee() != nullptr ? c->getDirectCallee() : k.callee.at(c);
    const std::string warp_fn = WarpFnName(callee, c, k);
    const FunctionDecl* g = callee->getDefinition();
    if (g->getTemplateInstantiationPattern() != nullptr) g = g->getTemplateInstantiationPattern();
    const CharSourceRange cr = FileRange(c->getSourceRange());
    if (cr.isInvalid()) return false;
    PrintingPolicy pp = ctx_.getPrintingPolicy();
    pp.SuppressTagKeyword = true;
    pp.FullyQualifiedName = true;
    // The arguments last to first, as g++ evaluates a call's arguments on x86-64 (the order is
    // unspecified): the per-thread path's call makes its accesses in that order.
    std::string args;
    std::vector<std::string> each(c->getNumArgs());
    for (unsigned i = 0; i < c->getNumArgs(); ++i) {
      const Expr* a = c->getArg(i);
      const CharSourceRange ar = FileRange(a->getSourceRange());
      if (ar.isInvalid() || i >= g->getNumParams()) return false;
      if (ArrayReference(g->getParamDecl(i))) {  // the __shared__ array, one for the warp
        if (!SharedArrayArgument(a)) return false;
        args += ", " + RawText(Offset(ar.getBegin()), Offset(ar.getEnd()));
        continue;
      }
      const std::string name = k.Name("a");
      each[i] = "::ws::simt::Lanes<std::remove_cv_t<" +
                g->getParamDecl(i)->getType().getUnqualifiedType().getAsString(pp) + ">> " + name +
                "; ";
      if (!SimtLeaf(ar.getBegin(), ar.getEnd(), a, k, name + "[ws_l] = (", ");", each[i]))
        return false;
      args += ", " + name;
    }
    for (auto it = each.rbegin(); it != each.rend(); ++it) out += *it;
    std::string result;
    if (!g->getReturnType()->isVoidType()) {
      result = k.Name("r");
      out += "::ws::simt::Lanes<std::remove_cv_t<" +
             g->getReturnType().getUnqualifiedType().getAsString(pp) + ">> " + result + "; ";
    }
    out += warp_fn + "(ws_W" + (result.empty() ? "" : ", &" + result) + args + "); ";
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
  // What a lane may not evaluate: an arm of `?:`, the right of `&&` and `||`, a lambda. An access
  // elsewhere is made by every running lane (kAlways: its slot's lanes are the warp's).
  std::vector<std::pair<unsigned, unsigned>> maybe;
  {
    auto add = [&](const Stmt* x) {
      const CharSourceRange r = FileRange(x->getSourceRange());
      if (r.isValid()) maybe.emplace_back(Offset(r.getBegin()), Offset(r.getEnd()));
    };
    std::vector<const Stmt*> todo = {of};
    while (!todo.empty()) {
      const Stmt* x = todo.back();
      todo.pop_back();
      if (const auto* c = dyn_cast<AbstractConditionalOperator>(x)) {
        add(c->getTrueExpr());
        add(c->getFalseExpr());
      } else if (const auto* o = dyn_cast<BinaryOperator>(x); o != nullptr && o->isLogicalOp()) {
        add(o->getRHS());
      } else if (isa<LambdaExpr>(x)) {
        add(x);
      }
      for (const Stmt* ch : x->children())
        if (ch != nullptr) todo.push_back(ch);
    }
  }
  unsigned slots = 0;
  bool writes = false;  // a store or an atomic: its value is read after the lane's turn
  std::string bounds;   // each access's slot's bounds, declared before the lanes run
  for (const Numbered& n : numbered_) {
    const Access& a = n.a;
    if (a.begin < rb || a.end > re) continue;
    // A lesson's own arrays are not recorded on its thread-by-thread path either (the lesson's
    // figures model local memory): plain arrays of each lane.
    if (a.local && rq_.lesson_places) continue;
    if (a.local) return false;  // checked before: not here
    if (a.call) {  // a texture fetch (its place added as the file's edits add it): TexLane
      const unsigned span = a.end - a.begin;
      list.push_back({a.begin - rb, a.begin - rb,
                      "(::ws::simt::TexLane(ws_W, ws_l, " + std::to_string(slots) + "u), ", 1,
                      span});
      list.push_back({a.end - rb, a.end - rb, ")", 0, span});
      ++slots;
      continue;
    }
    const char* fn = a.access == ProgramAccess::kLoad        ? "Ld"
                     : a.access == ProgramAccess::kStore     ? "St"
                     : a.access == ProgramAccess::kLoadStore ? "LdSt"
                                                             : "At";
    const std::string b = "ws_b" + std::to_string(slots);
    bounds += "[[maybe_unused]] ::ws::simt::Bounds " + b + " = ::ws::simt::BoundsOf<" + n.place +
              ">(ws_W, " + std::to_string(slots) + "u); ";
    const std::string slot = std::to_string(slots) + "u, " + b + ", ";
    writes = writes || a.access != ProgramAccess::kLoad;
    slots += a.access == ProgramAccess::kLoadStore ? 2 : 1;
    const unsigned span = a.end - a.begin;
    bool always = true;
    for (const auto& [mb, me] : maybe) always = always && !(a.begin >= mb && a.end <= me);
    // A load's flags end in kLaterMark, which becomes kLater where the statement stores nothing.
    const std::string head =
        std::string("::ws::simt::") + fn + "<" + n.place + ", 0u" +
        (a.several ? " | ::ws::prog::kOpSeveral" : "") + (always ? " | ::ws::simt::kAlways" : "") +
        (a.access == ProgramAccess::kLoad ? kLaterMark : "") + ">(ws_W, ws_l, " + slot;
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
  // __device__ function of the program)? Then each lane's turn enters the lane. Does it read
  // threadIdx & co. (or call anything at all)? Then each lane's turn makes the lane the running
  // thread (t_thread); else its lanes run without (WS_SIMT_LANES_NO_THREAD).
  bool ctx = false;
  bool thread = false;
  bool unseen = false;
  std::set<const VarDecl*> bound;
  std::string binds;
  std::vector<const Stmt*> todo = {of};
  while (!todo.empty()) {
    const Stmt* s = todo.back();
    todo.pop_back();
    if (const auto* d = dyn_cast<DeclRefExpr>(s)) {
      const auto* v = dyn_cast<VarDecl>(d->getDecl());
      if (v != nullptr && v->hasGlobalStorage() && v->getDeclContext()->isTranslationUnit()) {
        const StringRef name = v->getName();
        thread = thread || name == "threadIdx" || name == "blockIdx" || name == "blockDim" ||
                 name == "gridDim" || name == "warpSize";
      }
      auto it = v != nullptr ? k.lanes.find(v) : k.lanes.end();
      bool declared_here = false;
      if (const auto* ds = dyn_cast<DeclStmt>(of))
        for (const Decl* x : ds->decls()) declared_here = declared_here || x == v;
      if (it != k.lanes.end() && !declared_here && bound.insert(v).second)
        binds += "auto& " + v->getName().str() + " = " + it->second + "[ws_l]; ";
    }
    // (A template's dependent expression may be a call or a constructor in an instantiation.)
    if (isa<CallExpr>(s) || isa<CXXConstructExpr>(s) || isa<LambdaExpr>(s) ||
        (isa<Expr>(s) && cast<Expr>(s)->isTypeDependent()))
      thread = true;
    if (const auto* c = dyn_cast<CallExpr>(s); c != nullptr && k.hoist.count(c) == 0) {
      // A call given a pointer or a reference it may write through (memcpy, sincosf's outputs, a
      // function of the program that calls one): writes the recording does not see.
      const FunctionDecl* f = c->getDirectCallee();
      if (f == nullptr && !isa<CXXPseudoDestructorExpr>(c->getCallee())) unseen = true;
      if (f != nullptr && !IsAtomic(f) && !InNamespace(f, "ws")) {
        for (const ParmVarDecl* p : f->parameters()) {
          const QualType t = p->getType();
          const QualType to =
              t->isPointerType() || t->isReferenceType() ? t->getPointeeType() : QualType();
          if (!to.isNull() && !to.isConstQualified() && !(t->isRValueReferenceType()))
            unseen = true;
        }
      }
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
  std::string text = ApplyEdits(RawText(rb, re), std::move(list));
  // Loads in a statement that stores nothing (nor calls what may) read their values when their
  // request is formed, not lane by lane (ws_program_simt.h, kLater).
  const std::string later = writes || unseen ? "" : " | ::ws::simt::kLater";
  for (std::size_t at = text.find(kLaterMark); at != std::string::npos;
       at = text.find(kLaterMark, at + later.size()))
    text.replace(at, std::strlen(kLaterMark), later);
  const std::string n = std::to_string(slots) + "u";
  // At the statement's own line (__LINE__ in assert, the compiler's messages).
  out += "\n#line " + std::to_string(sm_.getSpellingLineNumber(b)) + " \"" +
         CString(DisplayName(sm_.getFileID(b))) + "\"\n";
  if (!bounds.empty()) out += "{ " + bounds;
  if (unseen) out += "::ws::simt::Unseen(ws_W); ";
  out += ctx      ? "WS_SIMT_LANES_CTX(ws_W) "
         : thread ? "WS_SIMT_LANES(ws_W) "
                  : "WS_SIMT_LANES_NO_THREAD(ws_W) ";
  out += binds + prefix + text + suffix;
  const std::string end = std::string(writes ? "WS_SIMT_END_W" : "WS_SIMT_END") +
                          (ctx ? "_CTX(ws_W, " : "(ws_W, ") + n + ")";
  out += " " + end;
  if (!bounds.empty()) out += " }";
  return true;
}

// The lanes where condition `c` holds, into a new mask variable (its name returned).
std::string Collector::SimtCond(const Expr* c, SimtKernel& k, const std::string& mask,
                                std::string& out) {
  const CharSourceRange r = FileRange(c->getSourceRange());
  if (r.isInvalid()) return "";
  if (SimtUniformLeaf(c, k)) {  // the same in every lane: tested once
    out += "::ws::simt::Mask " + mask + " = 0u; ";
    if (!SimtOnce(c, "if (static_cast<bool>(", ")) " + mask + " = ws_W.mask;", out)) return "";
    return mask;
  }
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
    unsigned rb = Offset(r.getBegin());
    const unsigned re = Offset(r.getEnd());
    // With the attributes written before it (`alignas(16) __shared__ float t[16][16]`), which the
    // statement's range leaves out: without its alignment a float4 store into the tile faulted.
    // Only its own, on its line: an attribute a redeclaration inherits (a file-scope `extern
    // __shared__ __align__(16) float s[]` declared again in the kernel) lies elsewhere.
    if (first != nullptr) {
      for (const Attr* a : first->attrs()) {
        if (a->isImplicit() || a->isInherited()) continue;
        const CharSourceRange ar = FileRange(a->getRange());
        if (ar.isValid() && sm_.getFileID(ar.getBegin()) == sm_.getFileID(r.getBegin()) &&
            Offset(ar.getBegin()) < rb &&
            sm_.getSpellingLineNumber(ar.getBegin()) == sm_.getSpellingLineNumber(r.getBegin()))
          rb = Offset(ar.getBegin());
      }
    }
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
    // A uniform variable's declaration: its initializer reads the block's indices.
    out += std::string(first != nullptr && k.uniform.count(first) > 0 ? "WS_SIMT_AT(ws_W) " : "") +
           ApplyEdits(RawText(rb, re), std::move(list)) + " ";
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
  const auto [init, cond, inc, body, is_do] = PartsOfLoop(s);
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
      if (r.isInvalid()) return false;
      if (SimtUniformLeaf(inc, k) ? !SimtOnce(inc, "", ";", out)
                                  : !SimtLeaf(r.getBegin(), r.getEnd(), inc, k, "", ";", out))
        return false;
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
    if (SimtUniformLeaf(e, k)) return SimtOnce(e, "", ";", out);
    return SimtLeaf(r.getBegin(), r.getEnd(), e, k, "", ";", out);
  }
  return false;
}

}  // namespace ws::rewrite_internal
