// The rewriter's AST visitor (program_rewrite.h): it walks the AST of every device function and
// collects text insertions, which the consumer (program_rewrite.cpp) applies to the source in one
// pass. Its members are defined in collector_visits.cpp (what each AST node adds: accesses,
// shared arrays, loops), collector_launches.cpp (kernel launches and the kernels' table) and
// collector_edits.cpp (the edits and sites they make).
#pragma once

#include <clang/AST/ASTConsumer.h>
#include <clang/AST/ASTContext.h>
#include <clang/AST/RecursiveASTVisitor.h>
#include <clang/Basic/SourceManager.h>
#include <clang/Lex/Lexer.h>
#include <llvm/Support/raw_ostream.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <map>
#include <set>
#include <sstream>
#include <tuple>

#include "rewrite_consumer.h"

namespace ws::rewrite_internal {

using namespace clang;  // NOLINT: the visitor names many clang types

struct Access {
  unsigned begin = 0, end = 0;  // file offsets of the expression
  ProgramAccess access = ProgramAccess::kLoad;
  bool pointer = false;  // E is a pointer to the memory (__ldg(p), an atomic's address)
  bool several = false;  // through a pointer read from memory: a row of a T** (d[i][j])
  bool call = false;     // a texture fetch: its site goes in as a last argument, before `rparen`
  // An element of the thread's own array (local memory, if the array is ever indexed at run
  // time): the array's declaration (its offset) and the name the access refers to it by.
  bool local = false;
  unsigned local_decl = 0;
  std::string local_array;
  unsigned rparen = 0;
  std::string file;  // the program file it is in
  std::uint32_t line = 0, column = 0, end_column = 0;
  std::string text;
};

// threadIdx, blockIdx, blockDim, gridDim as ws_program.h declares them: their index among the
// four, or -1 (a program's own variable of one of these names, such as a `dim3 blockDim` in
// main(), is not one).
int BuiltinIndex(const VarDecl* v);
bool IsBuiltinVariable(const VarDecl* v);

// `text` as the inside of a C string literal (quotes and backslashes escaped, line breaks out).
std::string CString(const std::string& text);

std::string NameOf(const FunctionDecl* f);

bool IsAtomic(const FunctionDecl* f);

// `mov.u64 %0, %%globaltimer;` (mov.u32/s32/s64 too): the special register it reads.
bool SpecialRegisterRead(const std::string& text, std::string* reg);

// The cache-hinted loads and stores, which take the address: __ldg(p), __stcg(p, v).
ProgramAccess HintedAccess(const FunctionDecl* f, bool* hinted);

// A function of the C library that device code calls and the emulator answers itself: printf
// (in block order) and clock (the model's cycles). The macro each becomes in device code.
const char* DeviceLibraryMacro(const FunctionDecl* f);

class Collector : public RecursiveASTVisitor<Collector> {
  using Base = RecursiveASTVisitor<Collector>;

 public:
  Collector(ASTContext& ctx, RewrittenProgram* out, const RewriteRequest& rq)
      : ctx_(ctx), sm_(ctx.getSourceManager()), out_(out), rq_(rq) {
    main_dir_ = MainPath().parent_path();
  }

  // The main file's absolute path.
  std::filesystem::path MainPath() const {
    const FileEntry* e = sm_.getFileEntryForID(sm_.getMainFileID());
    return e != nullptr ? std::filesystem::path(e->getName().str()).lexically_normal()
                        : std::filesystem::path(rq_.file_name);
  }

  // Is `f` one of the program's own files (the main file, or a header that is not a system
  // header and not the shim)? Their device code is rewritten and recorded.
  bool IsProgramFile(FileID f) const;
  // The name a program file goes by: relative to the main file's folder ("kernel.cuh",
  // "../common/book.h"); the main file's own name for it.
  std::string DisplayName(FileID f) const {
    if (f == sm_.getMainFileID()) return rq_.file_name;
    const FileEntry* e = sm_.getFileEntryForID(f);
    if (e == nullptr) return "?";
    const std::filesystem::path abs =
        std::filesystem::absolute(e->getName().str()).lexically_normal();
    std::filesystem::path rel = abs.lexically_relative(main_dir_);
    return rel.empty() ? abs.string() : rel.string();
  }

  bool shouldVisitTemplateInstantiations() const { return true; }

  bool TraverseDecl(Decl* d);
  // sizeof(a[i]) reads nothing.
  bool TraverseUnaryExprOrTypeTraitExpr(UnaryExprOrTypeTraitExpr*) { return true; }

  bool VisitImplicitCastExpr(ImplicitCastExpr* e) {
    if (Recording() && e->getCastKind() == CK_LValueToRValue)
      AddAccesses(e->getSubExpr(), ProgramAccess::kLoad);
    return true;
  }
  // An access of kind `kind` to the lvalue `e`: where it names memory, that; where it is
  // `c ? a[i] : d` (an lvalue whose arms are of one type: the access comes after the choice),
  // each arm that names memory, an arm of another qualification (a no-op cast) included.
  void AddAccesses(const Expr* e, ProgramAccess kind) {
    e = e->IgnoreParens();
    if (const auto* c = dyn_cast<ConditionalOperator>(e)) {
      AddAccesses(c->getTrueExpr(), kind);
      AddAccesses(c->getFalseExpr(), kind);
    } else if (const auto* n = dyn_cast<ImplicitCastExpr>(e);
               n != nullptr && n->getCastKind() == CK_NoOp && n->isGLValue()) {
      AddAccesses(n->getSubExpr(), kind);
    } else if (IsMemory(e)) {
      AddAccess(e, kind);
    }
  }
  bool VisitBinaryOperator(BinaryOperator* e) {
    if (Recording()) NoteFlops(e);
    if (!Recording() || !e->isAssignmentOp()) return true;
    AddAccesses(e->getLHS(),
                e->getOpcode() == BO_Assign ? ProgramAccess::kStore : ProgramAccess::kLoadStore);
    return true;
  }
  bool VisitUnaryOperator(UnaryOperator* e) {
    if (Recording() && e->isIncrementDecrementOp())
      AddAccesses(e->getSubExpr(), ProgramAccess::kLoadStore);
    return true;
  }
  // A struct or vector (float4) copied out of memory, or assigned into it.
  // The program's cuda::pipeline<Scope> names cuda::ws_pipeline<Scope>: on the emulator an alias of
  // the shim's pipeline, on a GPU libcu++'s with its calls noted for the Pipeline view
  // (shim/gpu/cuda/pipeline), so that a pipeline declared by its type (cuda-samples') is noted as
  // one kept as `auto`. Only references to that type, where a program file spells them.
  bool VisitTemplateSpecializationTypeLoc(TemplateSpecializationTypeLoc tl) {
    const TemplateDecl* t = tl.getTypePtr()->getTemplateName().getAsTemplateDecl();
    if (t != nullptr && t->getName() == "pipeline" && IsCudaPipeline(t)) {
      SourceLocation at = tl.getTemplateNameLoc();
      if (at.isMacroID()) at = sm_.getSpellingLoc(at);
      if (at.isFileID() && IsProgramFile(sm_.getFileID(at)) &&
          std::strncmp(sm_.getCharacterData(at), "pipeline", 8) == 0 &&
          renamed_.insert(Offset(at)).second)
        edits_.push_back({Offset(at), Offset(at) + 8, "ws_pipeline", 2, 0});
    }
    return true;
  }
  static bool IsCudaPipeline(const Decl* d) {
    for (const DeclContext* c = d->getDeclContext(); c != nullptr; c = c->getParent()) {
      if (const auto* n = dyn_cast<NamespaceDecl>(c); n != nullptr && n->getName() == "cuda")
        return true;
    }
    return false;
  }

  bool VisitCXXConstructExpr(CXXConstructExpr* e) {
    if (!Recording() || e->getNumArgs() != 1) return true;
    const CXXConstructorDecl* c = e->getConstructor();
    if (c == nullptr || !(c->isCopyConstructor() || c->isMoveConstructor())) return true;
    const Expr* arg = e->getArg(0)->IgnoreImpCasts();
    if (IsMemory(arg)) AddAccess(arg, ProgramAccess::kLoad);
    return true;
  }
  bool VisitCXXOperatorCallExpr(CXXOperatorCallExpr* e);
  bool VisitCallExpr(CallExpr* e);

  // The device heap (collector_heap.cpp): new, new[], delete and delete[] in device code become
  // ws::prog::HeapNew<T>(...), HeapNewArray<T>(n), HeapDelete(p) and HeapDeleteArray(p), and
  // malloc and free HeapMalloc and HeapFree, over the emulator's "device heap" buffer; placement
  // new is left as written. In a template's text once, for every instantiation.
  bool VisitCXXNewExpr(CXXNewExpr* e);
  bool VisitCXXDeleteExpr(CXXDeleteExpr* e);

  // Loops in device code: `{ ::ws::prog::Loop L(id); for (...) { ::ws::prog::Iter I(L); ... } }`
  // (ws_program.h): each iteration is an instance, and a warp's request is its lanes that reach
  // a site in the same one. Inserted text only, no line break.
  bool VisitForStmt(ForStmt* s) {
    NoteCounter(s);
    InstrumentLoop(s, s->getBody(), false);
    return true;
  }
  bool VisitWhileStmt(WhileStmt* s) {
    InstrumentLoop(s, s->getBody(), false);
    return true;
  }
  bool VisitDoStmt(DoStmt* s) {
    InstrumentLoop(s, s->getBody(), true);
    return true;
  }
  bool VisitCXXForRangeStmt(CXXForRangeStmt* s) {
    InstrumentLoop(s, s->getBody(), false);
    return true;
  }
  // A __device__ function's body opens a call instance.
  bool VisitFunctionDecl(FunctionDecl* f);

  // asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t)): a read of one of the special registers
  // becomes the emulator's answer; any other inline PTX is refused by name.
  bool VisitGCCAsmStmt(GCCAsmStmt* a);

  bool VisitCUDAKernelCallExpr(CUDAKernelCallExpr* e);
  // A generic lambda (`[&](auto* p) { k<float, 64><<<g, b>>>(p); }`): its body as each call
  // instantiates it, as a function template's (collector_launches.cpp).
  bool TraverseLambdaExpr(LambdaExpr* e);

  bool VisitDeclStmt(DeclStmt* s);

  bool VisitVarDecl(VarDecl* v);

  bool VisitDeclRefExpr(DeclRefExpr* e);

  // A member called threadIdx, blockIdx, blockDim or gridDim (cudaKernelNodeParams's gridDim, or
  // a struct of the program's own): renamed ws_user_NAME where declared and used, as a variable
  // of those names is (the shim's members are so named: WS_BUILTIN_MEMBER).
  bool VisitMemberExpr(MemberExpr* e) {
    const std::string name = e->getMemberNameInfo().getAsString();
    if (name == "threadIdx" || name == "blockIdx" || name == "blockDim" || name == "gridDim")
      RenameShadow(e->getMemberLoc(), name);
    return true;
  }
  bool VisitFieldDecl(FieldDecl* f) {
    if (f->getIdentifier() == nullptr) return true;
    const std::string name = f->getName().str();
    if (name == "threadIdx" || name == "blockIdx" || name == "blockDim" || name == "gridDim")
      RenameShadow(f->getLocation(), name);
    return true;
  }

  // A program's own variable called threadIdx, blockIdx, blockDim or gridDim (the seeds'
  // `dim3 blockDim(...)` in main()): on the emulator those names are the built-ins' macros, so the
  // variable is renamed ws_user_NAME where it is declared and used.
  static bool IsShadowingBuiltin(const VarDecl* v) {
    if (v == nullptr || v->getIdentifier() == nullptr || BuiltinIndex(v) >= 0) return false;
    const std::string name = v->getName().str();
    return name == "threadIdx" || name == "blockIdx" || name == "blockDim" || name == "gridDim";
  }
  void RenameShadow(SourceLocation at, const std::string& name) {
    if (at.isMacroID()) at = sm_.getSpellingLoc(at);
    if (!at.isFileID() || !IsProgramFile(sm_.getFileID(at))) return;
    const unsigned b = Offset(at);
    if (!renamed_.insert(b).second) return;
    edits_.push_back({b, b + static_cast<unsigned>(name.size()), "ws_user_" + name, 2, 0});
  }

  // Sorts the accesses into source order, numbers them and adds their edits.
  void Finish();
  // A launch in a template that nothing instantiates (or in a generic lambda never called): the
  // host compiler still reads it, so it is written as a call (collector_launches.cpp).
  void FinishLaunches();

  std::vector<Edit>& edits() { return edits_; }
  bool has_main() const { return has_main_; }
  std::vector<ProgramDiagnostic>& errors() { return errors_; }

 private:
  bool Recording() const { return in_device_ && !in_dependent_; }

  // Is `e` (an lvalue) an object in memory, rather than a local variable in registers?
  bool IsMemory(const Expr* e) const;

  // Does another function (not a redeclaration of `f`) share its name where it is declared?
  static bool Overloaded(const FunctionDecl* f);

  // The bytes of a kernel's own __shared__ arrays, each 16-byte aligned as the emulator
  // places them.
  std::uint64_t StaticShared(const FunctionDecl* f) const;
  std::uint32_t ClusterDims(const FunctionDecl* f) const;  // collector_launches.cpp

  // Puts kernel `f` (not a template; a template's specialization by its arguments) in the
  // kernels' table by address, with its static shared memory (collector_launches.cpp).
  void AddToKernelTable(const FunctionDecl* f);
  // Does `callee`, as written, name `kernel` alone: a template's specialization with every
  // argument written out (`scale<T, 64>`), whose address is one function?
  bool NamesOneSpecialization(const FunctionDecl* kernel, const Expr* callee) const;

  // The edits of a launch that calls its kernel as written, from a lambda (LaunchVia).
  // `kernel`: the kernel an instantiation launches there (null: not known), whose warp function,
  // where it has one, the launch passes too (EmitWarpFunctions).
  void LaunchAsWritten(const CharSourceRange& callee, unsigned open, unsigned close,
                       std::uint32_t line, const FunctionDecl* kernel = nullptr);

  // cudaMalloc(&d_in, n): the buffer is called d_in in every view.
  void NameAllocation(const CallExpr* e);

  // A number for the loop or function at `at`, the same wherever the program is compiled.
  std::string StaticId(SourceLocation at) const {
    const std::string where =
        DisplayName(sm_.getFileID(at)) + ":" + std::to_string(sm_.getFileOffset(at));
    std::uint32_t h = 2166136261u;
    for (unsigned char c : where) h = (h ^ c) * 16777619u;
    return std::to_string(h | 1u) + "u";  // never 0, the iterations' id
  }

  void InstrumentLoop(Stmt* loop, Stmt* body, bool is_do);

  // The SIMT path (collector_simt.cpp): a warp function beside each kernel it can express, and
  // why not for the others.
  void EmitWarpFunctions();
  // A warp function's text, at `at` in the file (RewriteRequest::lesson_places: kept apart, in
  // RewrittenProgram::lesson_warps).
  void EmitWarp(unsigned at, std::string text);
  struct SimtKernel;
  std::string SimtCheck(const FunctionDecl* f, SimtKernel& k);
  // A thread's own array indexed at run time in `range` (a function's), which the SIMT rewrite
  // does not hold per lane (yet): why, else "" (a lesson's is a plain array of each lane: its
  // accesses are recorded on neither path).
  std::string SimtLocalArrayWhy(const CharSourceRange& range) const;
  std::string SimtCheckStmt(const Stmt* s, SimtKernel& k, int loops);
  std::string SimtCheckExpr(const Stmt* e, SimtKernel& k);
  bool SimtStmt(const Stmt* s, SimtKernel& k, std::string& out);
  bool SimtLeaf(SourceLocation b, SourceLocation e, const Stmt* of, SimtKernel& k,
                const std::string& prefix, const std::string& suffix, std::string& out);
  std::string SimtCond(const Expr* c, SimtKernel& k, const std::string& mask, std::string& out);
  bool SimtDecl(const DeclStmt* d, SimtKernel& k, std::string& out);
  // Uniform variables and statements (collector_simt_uniform.cpp).
  void SimtUniform(const Stmt* body, SimtKernel& k);
  bool SimtUniformExpr(const Stmt* e, const SimtKernel& k, bool writes) const;
  bool SimtUniformLeaf(const Stmt* of, const SimtKernel& k) const;
  bool SimtOnce(const Stmt* of, const std::string& prefix, const std::string& suffix,
                std::string& out);
  std::string RawText(unsigned b, unsigned e) const;
  bool CalleeTouchesMemory(const FunctionDecl* f, std::set<const FunctionDecl*>& seen) const;
  std::string SimtDeviceFn(const FunctionDecl* g);
  // The warp function's name of __device__ function `g` as call `c` names it: `g__ws_warp`, with
  // the template arguments of a function template's call (as written where they depend on the
  // caller's, else the specialization's); "" where it cannot write them.
  std::string WarpFnName(const FunctionDecl* g, const CallExpr* c, const SimtKernel& k) const;
  std::string SimtInstantiations(const FunctionTemplateDecl* ftd, const Stmt* body, bool device,
                                 SimtKernel& k, std::size_t* hoisted);

  CharSourceRange FileRange(SourceRange r) const {
    CharSourceRange c =
        Lexer::makeFileCharRange(CharSourceRange::getTokenRange(r), sm_, ctx_.getLangOpts());
    if (c.isInvalid() || !IsProgramFile(sm_.getFileID(c.getBegin()))) return CharSourceRange();
    return c;
  }
  // A place in any of the program's files: the location's raw encoding, unique across files and
  // in order within one (the edits are split by file at the end: SplitEdits).
  unsigned Offset(SourceLocation l) const { return l.getRawEncoding(); }

  // The thread's own variable whose element `e` is (`a[i]`, `a[i][j]`, `s[i].x` with `float
  // a[8][8]` or a struct array declared in the function), with the indices on the way; null
  // when `e` is not one. `ref`: the reference to the variable.
  const VarDecl* LocalArrayOf(const Expr* e, std::vector<const Expr*>* indices = nullptr,
                              const DeclRefExpr** ref = nullptr) const {
    bool subscript = false;
    for (;;) {
      e = e->IgnoreParens();
      if (const auto* m = dyn_cast<MemberExpr>(e)) {
        if (m->isArrow()) return nullptr;
        e = m->getBase();
      } else if (const auto* a = dyn_cast<ArraySubscriptExpr>(e)) {
        const auto* decay = dyn_cast<ImplicitCastExpr>(a->getBase()->IgnoreParens());
        if (decay == nullptr || decay->getCastKind() != CK_ArrayToPointerDecay) return nullptr;
        if (indices != nullptr) indices->push_back(a->getIdx());
        subscript = true;
        e = decay->getSubExpr();
      } else {
        break;
      }
    }
    const auto* d = dyn_cast<DeclRefExpr>(e);
    const auto* v = d != nullptr ? dyn_cast<VarDecl>(d->getDecl()) : nullptr;
    if (!subscript || v == nullptr || !v->hasLocalStorage() || isa<ParmVarDecl>(v) ||
        v->getType()->isReferenceType() || v->hasAttr<CUDASharedAttr>() ||
        v->getType()->isDependentType())
      return nullptr;
    if (ref != nullptr) *ref = d;
    return v;
  }

  // Is the integer `e` known once loops with constant trip counts are unrolled: a constant, a
  // counter of such a loop (counters_), or arithmetic on them? An array indexed only so is kept
  // in registers by the compiler; one indexed by anything else (threadIdx, a parameter, a value
  // from memory, a loop of run-time length) lives in local memory (CUDA C++ Programming Guide,
  // "Local Memory").
  bool UnrollConstant(const Expr* e) const;
  static bool RefersTo(const Expr* e, const VarDecl* v) {
    const auto* d = dyn_cast<DeclRefExpr>(e->IgnoreParenImpCasts());
    return d != nullptr && d->getDecl()->getCanonicalDecl() == v->getCanonicalDecl();
  }
  // `for (int k = A; k < B; ++k)` with A, B and the step unroll-constant, and at most
  // kUnrollTrips trips where they are constants: k is a counter the compiler unrolls away.
  void NoteCounter(const ForStmt* s);

  // Is `e` (an element or a dereference) reached through a pointer the kernel reads from memory:
  // d[i][j] with `int** d`, (*rows)[j]? Its site may reach a buffer per row: both roads key it
  // by no buffer (ws_program.h's kOpSeveral).
  static bool ThroughLoadedPointer(const Expr* e);

  void AddAccess(const Expr* e, ProgramAccess kind, bool pointer = false);

  // Floating-point operations (collector_flops.cpp): the outermost of a tree of +, -, * and / on
  // floating types (and their compound assignments) is counted where it runs, with the tree's
  // operations: `(::ws::prog::CountFlops(2u), (a * b + c))`. An fma call counts 2.
  void NoteFlops(const Expr* e);
  void NoteFmaCall(const CallExpr* e);
  void WrapFlops(const Expr* e, unsigned ops);
  void FinishFlops();

  // `extern __shared__ T s[]`: the declaration becomes a comment, each use the launch's
  // dynamic shared memory.
  void CommentOut(SourceRange decl, VarDecl* v, bool to_semicolon = false);

  SourceLocation AfterSemicolon(SourceLocation end) const;

  ProgramDiagnostic Diagnostic(SourceLocation at, const std::string& what, bool error) const {
    const SourceLocation e = sm_.getExpansionLoc(at);
    const PresumedLoc p = sm_.getPresumedLoc(e);
    const FileID f = sm_.getFileID(e);
    return {p.isValid() ? p.getLine() : 0u, p.isValid() ? p.getColumn() : 0u, error, what,
            f == sm_.getMainFileID() ? std::string() : DisplayName(f)};
  }
  void Warn(SourceLocation at, const std::string& what) {
    out_->warnings.push_back(Diagnostic(at, what, false));
  }
  void Error(SourceLocation at, const std::string& what) {
    errors_.push_back(Diagnostic(at, what, true));
  }

 public:
  // The edits, by program file (their offsets made the file's own again), with each file's
  // text: the main file first.
  std::vector<std::pair<FileID, std::vector<Edit>>> SplitEdits() const;
  std::filesystem::path AbsolutePath(FileID f) const {
    const FileEntry* e = sm_.getFileEntryForID(f);
    return e != nullptr ? std::filesystem::absolute(e->getName().str()).lexically_normal()
                        : std::filesystem::path();
  }

 private:
  ASTContext& ctx_;
  SourceManager& sm_;
  RewrittenProgram* out_;
  const RewriteRequest& rq_;
  std::filesystem::path main_dir_;
  mutable std::map<FileID, bool> program_files_;
  bool in_device_ = false, in_dependent_ = false, in_instantiation_ = false, has_main_ = false,
       in_constexpr_ = false;
  std::map<std::tuple<unsigned, unsigned, int>, Access> accesses_;
  std::vector<Edit> edits_;
  // The accesses as Finish() numbered them, with their places (the SIMT path's slots).
  struct Numbered {
    Access a;
    std::string place;
  };
  std::vector<Numbered> numbered_;
  std::vector<const FunctionDecl*> simt_candidates_;     // kernels (not templates) in program files
  std::map<const FunctionDecl*, std::string> simt_;      // kernel -> its warp function's name, or
  std::map<const FunctionDecl*, std::string> simt_no_;   // why it has none
  std::map<const FunctionDecl*, std::string> simt_fn_;   // __device__ functions: "" or why not
  std::vector<const FunctionDecl*> kernel_table_decls_;  // out_->kernel_table's kernels
  std::vector<ProgramDiagnostic> errors_;
  std::map<const VarDecl*, std::string> dynamic_;  // extern __shared__ arrays: element type
  std::set<unsigned> heap_edits_;                  // the device heap's new and delete, by offset
  std::set<unsigned> launch_offsets_, dynamic_uses_, commented_, named_calls_, renamed_,
      instrumented_, macro_errors_;
  std::set<std::pair<unsigned, std::string>> shared_decls_;
  // Launches seen in a template's own text (dependent): written as calls at the end unless an
  // instantiation wrote them (FinishLaunches).
  struct PendingLaunch {
    CharSourceRange callee;
    unsigned open = 0, close = 0;
    std::uint32_t line = 0;
  };
  std::vector<PendingLaunch> pending_launches_;
  struct ViaLaunch {  // a launch called as written (LaunchVia): its edit and the kernel
    std::size_t edit;
    const FunctionDecl* kernel;
    std::string as_written;
  };
  std::vector<ViaLaunch> via_launches_;
  std::set<const VarDecl*> counters_;        // counters of loops the compiler unrolls away
  std::map<unsigned, bool> local_run_time_;  // the thread's arrays: indexed at run time?
  std::set<const Expr*> flops_counted_;      // inside a counted tree: not counted again
  // Trees to count, by their place in the text (a template's, shared by its instantiations),
  // and the places where an instantiation has integer (or class) arithmetic instead: those are
  // not counted (FinishFlops).
  std::map<std::pair<unsigned, unsigned>, unsigned> flop_trees_;
  std::set<std::pair<unsigned, unsigned>> not_flops_;
};

}  // namespace ws::rewrite_internal
