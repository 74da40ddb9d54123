// The program rewriter's AST consumer (program_rewrite.h): a visitor walks the AST of every
// device function and collects text insertions, which are applied to the source in one pass.
// The tooling around it is rewrite_driver.cpp.
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

namespace ws {

namespace {

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

// `text` as the inside of a C string literal (quotes and backslashes escaped, line breaks out).
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

// `mov.u64 %0, %%globaltimer;` (mov.u32/s32/s64 too): the special register it reads.
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

// The cache-hinted loads and stores, which take the address: __ldg(p), __stcg(p, v).
ProgramAccess HintedAccess(const FunctionDecl* f, bool* hinted) {
  static const std::set<std::string> loads = {"__ldg",  "__ldcg", "__ldca",
                                              "__ldcs", "__ldlu", "__ldcv"};
  static const std::set<std::string> stores = {"__stcg", "__stcs", "__stwb", "__stwt"};
  const std::string n = NameOf(f);
  *hinted = loads.count(n) > 0 || stores.count(n) > 0;
  return loads.count(n) > 0 ? ProgramAccess::kLoad : ProgramAccess::kStore;
}

// A function of the C library that device code calls and the emulator answers itself: printf
// (in block order) and clock (the model's cycles). The macro each becomes in device code.
const char* DeviceLibraryMacro(const FunctionDecl* f) {
  if (f == nullptr || !f->getDeclContext()->getRedeclContext()->isFileContext()) {
    if (f == nullptr || !f->isInStdNamespace()) return nullptr;
  }
  const std::string n = NameOf(f);
  return n == "printf" ? "WS_DEVICE_PRINTF" : n == "clock" ? "WS_DEVICE_CLOCK" : nullptr;
}

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
  bool IsProgramFile(FileID f) const {
    if (f.isInvalid()) return false;
    if (f == sm_.getMainFileID()) return true;
    if (auto it = program_files_.find(f); it != program_files_.end()) return it->second;
    bool mine = false;
    if (const FileEntry* e = sm_.getFileEntryForID(f)) {
      const std::string path = std::filesystem::absolute(e->getName().str()).lexically_normal();
      const std::string shim = std::filesystem::absolute(rq_.shim_dir).lexically_normal();
      mine = sm_.getFileCharacteristic(sm_.getLocForStartOfFile(f)) == SrcMgr::C_User &&
             path.rfind(shim + "/", 0) != 0;
    }
    program_files_[f] = mine;
    return mine;
  }
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

  bool TraverseDecl(Decl* d) {
    auto* f = dyn_cast_or_null<FunctionDecl>(d);
    if (f == nullptr) return Base::TraverseDecl(d);
    const bool device = f->hasAttr<CUDAGlobalAttr>() || WrittenDevice(f);
    if (f->isMain() && f->doesThisDeclarationHaveABody()) {
      has_main_ = true;
      if (f->getNumParams() > 0) out_->main_takes_args = true;
    }
    if (f->hasAttr<CUDAGlobalAttr>() && f->getIdentifier() != nullptr &&
        IsProgramFile(sm_.getFileID(sm_.getExpansionLoc(f->getLocation())))) {
      const std::string name = f->getName().str();
      if (f->doesThisDeclarationHaveABody() && !f->isTemplated() &&
          f->getTemplateSpecializationInfo() == nullptr && f->getDeclContext()->isFileContext() &&
          !f->isInAnonymousNamespace()) {
        std::string q;
        llvm::raw_string_ostream qos(q);
        f->printQualifiedName(qos);
        qos.flush();
        std::string address = "&" + q;
        if (Overloaded(f)) {
          PrintingPolicy policy = ctx_.getPrintingPolicy();
          policy.SuppressTagKeyword = true;
          address = "static_cast<" + ctx_.getPointerType(f->getType()).getAsString(policy) + ">(&" +
                    q + ")";
        }
        if (std::find(out_->kernel_table.begin(), out_->kernel_table.end(), address) ==
            out_->kernel_table.end()) {
          out_->kernel_table.push_back(address);
          out_->kernel_table_names.push_back(q);
        }
      }
      if (std::find(out_->kernels.begin(), out_->kernels.end(), name) == out_->kernels.end()) {
        out_->kernels.push_back(name);
        const SourceLocation at = sm_.getExpansionLoc(f->getLocation());
        out_->kernel_files.push_back(
            {name, DisplayName(sm_.getFileID(at)), sm_.getSpellingLineNumber(at)});
      }
    }
    const bool saved_device = in_device_, saved_dependent = in_dependent_,
               saved_instantiation = in_instantiation_;
    in_device_ = device;
    in_dependent_ = f->isDependentContext();
    in_instantiation_ = f->getTemplateInstantiationPattern() != nullptr;
    const bool saved_constexpr = in_constexpr_;
    in_constexpr_ = f->isConstexpr();
    const bool r = Base::TraverseDecl(d);
    in_constexpr_ = saved_constexpr;
    in_device_ = saved_device;
    in_dependent_ = saved_dependent;
    in_instantiation_ = saved_instantiation;
    return r;
  }
  // sizeof(a[i]) reads nothing.
  bool TraverseUnaryExprOrTypeTraitExpr(UnaryExprOrTypeTraitExpr*) { return true; }

  bool VisitImplicitCastExpr(ImplicitCastExpr* e) {
    if (Recording() && e->getCastKind() == CK_LValueToRValue && IsMemory(e->getSubExpr()))
      AddAccess(e->getSubExpr(), ProgramAccess::kLoad);
    return true;
  }
  bool VisitBinaryOperator(BinaryOperator* e) {
    if (!Recording() || !e->isAssignmentOp() || !IsMemory(e->getLHS())) return true;
    AddAccess(e->getLHS(),
              e->getOpcode() == BO_Assign ? ProgramAccess::kStore : ProgramAccess::kLoadStore);
    return true;
  }
  bool VisitUnaryOperator(UnaryOperator* e) {
    if (Recording() && e->isIncrementDecrementOp() && IsMemory(e->getSubExpr()))
      AddAccess(e->getSubExpr(), ProgramAccess::kLoadStore);
    return true;
  }
  // A struct or vector (float4) copied out of memory, or assigned into it.
  bool VisitCXXConstructExpr(CXXConstructExpr* e) {
    if (!Recording() || e->getNumArgs() != 1) return true;
    const CXXConstructorDecl* c = e->getConstructor();
    if (c == nullptr || !(c->isCopyConstructor() || c->isMoveConstructor())) return true;
    const Expr* arg = e->getArg(0)->IgnoreImpCasts();
    if (IsMemory(arg)) AddAccess(arg, ProgramAccess::kLoad);
    return true;
  }
  bool VisitCXXOperatorCallExpr(CXXOperatorCallExpr* e) {
    if (!Recording() || e->getNumArgs() != 2) return true;
    const Expr* lhs = e->getArg(0)->IgnoreImpCasts();
    if (e->getOperator() == OO_Equal && IsMemory(lhs)) AddAccess(lhs, ProgramAccess::kStore);
    // A struct or vector assigned from memory (`out[i] = v[i]` through float4*): the copy
    // assignment takes the source by reference, so no conversion reads it: the call does.
    if (e->getOperator() == OO_Equal) {
      const Expr* rhs = e->getArg(1)->IgnoreImpCasts();
      const auto* m = dyn_cast_or_null<CXXMethodDecl>(e->getDirectCallee());
      if (m != nullptr && (m->isCopyAssignmentOperator() || m->isMoveAssignmentOperator()) &&
          IsMemory(rhs))
        AddAccess(rhs, ProgramAccess::kLoad);
    }
    return true;
  }
  bool VisitCallExpr(CallExpr* e) {
    if (!in_dependent_ && !in_device_) NameAllocation(e);
    if (!Recording() || isa<CUDAKernelCallExpr>(e)) return true;
    const FunctionDecl* callee = e->getDirectCallee();
    if (IsAtomic(callee) && e->getNumArgs() >= 2)
      AddAccess(e->getArg(0)->IgnoreImpCasts(), ProgramAccess::kAtomic, /*pointer=*/true);
    bool hinted = false;
    const ProgramAccess hint = HintedAccess(callee, &hinted);
    if (hinted && e->getNumArgs() >= 1)
      AddAccess(e->getArg(0)->IgnoreImpCasts(), hint, /*pointer=*/true);
    if ((NameOf(callee) == "malloc" || NameOf(callee) == "free") &&
        callee->getDeclContext()->getRedeclContext()->isFileContext() &&
        IsProgramFile(sm_.getFileID(sm_.getExpansionLoc(e->getBeginLoc()))))
      Error(e->getBeginLoc(), NameOf(callee) +
                                  " in device code (the device heap) is not "
                                  "supported (yet)");
    // A texture fetch: tex2D<float>(t, x, y) gets its site as a last argument.
    static const std::set<std::string> fetches = {"tex1Dfetch", "tex1D", "tex2D"};
    if (fetches.count(NameOf(callee)) > 0 && e->getRParenLoc().isFileID()) {
      const CharSourceRange r = FileRange(e->getSourceRange());
      if (r.isValid()) {
        Access a;
        a.begin = Offset(r.getBegin());
        a.end = Offset(r.getEnd());
        a.access = ProgramAccess::kLoad;
        a.call = true;
        a.rparen = Offset(e->getRParenLoc());
        a.file = DisplayName(sm_.getFileID(r.getBegin()));
        a.line = sm_.getSpellingLineNumber(r.getBegin());
        a.column = sm_.getSpellingColumnNumber(r.getBegin());
        if (sm_.getSpellingLineNumber(r.getEnd()) == a.line)
          a.end_column = sm_.getSpellingColumnNumber(r.getEnd());
        a.text = Lexer::getSourceText(r, sm_, ctx_.getLangOpts()).str();
        accesses_.emplace(std::make_tuple(a.begin, a.end, 9), std::move(a));
      }
    }
    // assert() in device code: a failed one ends the launch with cudaErrorAssert and the program
    // goes on, as on a GPU (the macro's name becomes WS_DEVICE_ASSERT).
    if (NameOf(callee) == "__assert_fail" && e->getBeginLoc().isMacroID()) {
      SourceLocation at = e->getBeginLoc();
      while (at.isMacroID() &&
             !Lexer::getImmediateMacroName(at, sm_, ctx_.getLangOpts()).equals("assert"))
        at = sm_.getImmediateMacroCallerLoc(at);
      if (at.isMacroID()) {
        const SourceLocation name =
            sm_.getSpellingLoc(sm_.getImmediateExpansionRange(at).getBegin());
        if (name.isFileID() && IsProgramFile(sm_.getFileID(name)) &&
            renamed_.insert(Offset(name)).second)
          edits_.push_back({Offset(name), Offset(name) + 6, "WS_DEVICE_ASSERT", 2, 0});
      }
    }
    if (const char* macro = DeviceLibraryMacro(callee)) {
      const CharSourceRange r = FileRange(e->getCallee()->getSourceRange());
      if (r.isValid() && renamed_.insert(Offset(r.getBegin())).second)
        edits_.push_back({Offset(r.getBegin()), Offset(r.getEnd()), macro, 2, 0});
    }
    return true;
  }

  // The device heap (new, delete, malloc and free in device code) is refused where it is used.
  bool VisitCXXNewExpr(CXXNewExpr* e) {
    if (Recording() && !e->getOperatorNew()->isReservedGlobalPlacementOperator() &&
        IsProgramFile(sm_.getFileID(sm_.getExpansionLoc(e->getBeginLoc()))))
      Error(e->getBeginLoc(), "new in device code (the device heap) is not supported (yet)");
    return true;
  }
  bool VisitCXXDeleteExpr(CXXDeleteExpr* e) {
    if (Recording() && IsProgramFile(sm_.getFileID(sm_.getExpansionLoc(e->getBeginLoc()))))
      Error(e->getBeginLoc(), "delete in device code (the device heap) is not supported (yet)");
    return true;
  }

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
  bool VisitFunctionDecl(FunctionDecl* f) {
    // Not a constexpr function: its body may hold no object with a destructor (and a constant
    // expression has no warp to form requests in).
    if (!WrittenDevice(f) || f->hasAttr<CUDAGlobalAttr>() || !f->doesThisDeclarationHaveABody() ||
        f->isConstexpr())
      return true;
    const auto* body = dyn_cast_or_null<CompoundStmt>(f->getBody());
    if (body == nullptr) return true;
    const CharSourceRange r = FileRange(SourceRange(body->getLBracLoc(), body->getLBracLoc()));
    if (r.isInvalid()) return true;
    const unsigned at = Offset(r.getEnd());
    if (!instrumented_.insert(at).second) return true;
    edits_.push_back(
        {at, at, " ::ws::prog::Frame ws_frame(" + StaticId(r.getBegin()) + ");", 1, 0});
    return true;
  }

  // asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t)): a read of one of the special registers
  // becomes the emulator's answer; any other inline PTX is refused by name.
  bool VisitGCCAsmStmt(GCCAsmStmt* a) {
    if (!Recording()) return true;
    const std::string text = a->getAsmString()->getString().str();
    const char* fn = nullptr;
    std::string reg;
    if (a->getNumOutputs() == 1 && a->getNumInputs() == 0 && SpecialRegisterRead(text, &reg)) {
      fn = reg == "globaltimer" || reg == "globaltimer_lo" ? "::ws::prog::GlobalTimer()"
           : reg == "clock64"                              ? "::ws::prog::DeviceClock()"
           : reg == "clock"                                ? "::ws::prog::DeviceClock32()"
           : reg == "smid"                                 ? "::ws::prog::SmId()"
           : reg == "laneid"                               ? "::ws::prog::LaneId()"
           : reg == "warpid"                               ? "::ws::prog::WarpId()"
                                                           : nullptr;
    }
    const CharSourceRange r = FileRange(a->getSourceRange());
    const CharSourceRange out = a->getNumOutputs() == 1
                                    ? FileRange(a->getOutputExpr(0)->getSourceRange())
                                    : CharSourceRange();
    if (fn == nullptr || r.isInvalid() || out.isInvalid()) {
      Error(a->getAsmLoc(), "inline PTX (asm(\"" + text.substr(0, 40) +
                                "\")) is not supported (yet): Warpscope reads the special "
                                "registers %globaltimer, %clock, %clock64, %smid, %laneid and "
                                "%warpid only");
      return true;
    }
    const std::string target = Lexer::getSourceText(out, sm_, ctx_.getLangOpts()).str();
    const unsigned b = Offset(r.getBegin());
    if (renamed_.insert(b).second)
      edits_.push_back({b, Offset(r.getEnd()),
                        "((" + target + ") = static_cast<decltype(" + target + ")>(" + fn + "))", 2,
                        0});
    return true;
  }

  bool VisitCUDAKernelCallExpr(CUDAKernelCallExpr* e) {
    if (in_dependent_) return true;
    const CallExpr* config = e->getConfig();
    const FunctionDecl* kernel = e->getDirectCallee();
    const CharSourceRange callee = FileRange(e->getCallee()->getSourceRange());
    if (config == nullptr || callee.isInvalid() || !config->getBeginLoc().isFileID() ||
        !config->getRParenLoc().isFileID()) {
      Error(e->getBeginLoc(),
            "a kernel launch written by a macro is not supported (yet): write the <<<...>>> "
            "launch out for Warpscope to run it");
      return true;
    }
    // The kernel's name; through a function pointer (`fpDeriv[fp]<<<g, b>>>(...)`) the one its
    // value has, looked up when it runs (KernelTable), else the pointer as written.
    std::string name;
    llvm::raw_string_ostream os(name);
    if (kernel != nullptr)
      kernel->getNameForDiagnostic(os, ctx_.getPrintingPolicy(), false);
    else
      os << Lexer::getSourceText(callee, sm_, ctx_.getLangOpts());
    os.flush();
    const std::string quoted = CString(name);
    const unsigned open = Offset(config->getBeginLoc());
    const unsigned close = Offset(config->getRParenLoc());
    const std::uint32_t line = sm_.getSpellingLineNumber(e->getBeginLoc());
    if (!launch_offsets_.insert(open).second) return true;
    if (in_instantiation_) {
      // A launch inside a function template: one text for every instantiation, so the kernel is
      // called as written from a lambda (overloads and deduced template arguments resolve per
      // call), and named as written.
      const std::string written = Lexer::getSourceText(callee, sm_, ctx_.getLangOpts()).str();
      edits_.push_back({Offset(callee.getBegin()), Offset(callee.getEnd()),
                        "::ws::prog::LaunchVia(\"" + CString(written) + "\", " +
                            std::to_string(line) + "u, [&](auto... ws_a) { WS_KERNEL_CALL(" +
                            written + ", ws_a); }",
                        2, 0});
      edits_.push_back({open, open + 3, ", ::ws::prog::Config(", 2, 0});
      edits_.push_back({close, close + 3, ")).Run", 2, 0});
      out_->launches.push_back({written, line, DisplayName(sm_.getFileID(callee.getBegin()))});
      return true;
    }
    edits_.push_back({Offset(callee.getBegin()), Offset(callee.getBegin()),
                      "::ws::prog::Launch(\"" + quoted + "\", " + std::to_string(line) + "u, " +
                          std::to_string(kernel != nullptr ? StaticShared(kernel) : 0) + "u, ",
                      1, 0});
    // The kernel's address must name one function: a template kernel whose arguments were
    // deduced (`stride<<<g, b>>>(d_a, s)`) by its specialization, and a kernel that shares its
    // name with a host function (an overload) cast to its own type.
    const auto* ref = dyn_cast<DeclRefExpr>(e->getCallee()->IgnoreParenImpCasts());
    if (kernel != nullptr && ref != nullptr) {
      std::string written = Lexer::getSourceText(callee, sm_, ctx_.getLangOpts()).str();
      if (kernel->getTemplateSpecializationInfo() != nullptr && !ref->hasExplicitTemplateArgs()) {
        written.clear();
        llvm::raw_string_ostream fos(written);
        kernel->getNameForDiagnostic(fos, ctx_.getPrintingPolicy(), true);
        fos.flush();
      }
      if (Overloaded(kernel)) {
        PrintingPolicy policy = ctx_.getPrintingPolicy();
        policy.SuppressTagKeyword = true;
        written = "static_cast<" + ctx_.getPointerType(kernel->getType()).getAsString(policy) +
                  ">(" + written + ")";
      }
      if (written != Lexer::getSourceText(callee, sm_, ctx_.getLangOpts()))
        edits_.push_back({Offset(callee.getBegin()), Offset(callee.getEnd()), written, 2, 0});
    }
    edits_.push_back({open, open + 3, ", ::ws::prog::Config(", 2, 0});
    edits_.push_back({close, close + 3, ")).Run", 2, 0});
    // Arguments left to their defaults (`int* partial_sums = NULL`) are written out: the
    // launcher passes every parameter.
    std::string defaults;
    for (unsigned k = 0; k < e->getNumArgs(); ++k) {
      const auto* d = dyn_cast<CXXDefaultArgExpr>(e->getArg(k));
      if (d == nullptr) continue;
      const CharSourceRange dr = Lexer::makeFileCharRange(
          CharSourceRange::getTokenRange(d->getParam()->getDefaultArgRange()), sm_,
          ctx_.getLangOpts());
      if (dr.isInvalid()) {
        Error(e->getBeginLoc(),
              "a kernel's default argument written by a macro is not "
              "supported (yet): pass it in the launch");
        return true;
      }
      defaults += (k == 0 ? "" : ", ") + Lexer::getSourceText(dr, sm_, ctx_.getLangOpts()).str();
    }
    if (!defaults.empty() && e->getRParenLoc().isFileID()) {
      const unsigned rp = Offset(e->getRParenLoc());
      edits_.push_back({rp, rp, defaults, 0, 0});
    }
    out_->launches.push_back({name, line, DisplayName(sm_.getFileID(callee.getBegin()))});
    return true;
  }

  bool VisitDeclStmt(DeclStmt* s) {
    if (!in_device_ || in_dependent_) return true;
    for (Decl* d : s->decls()) {
      auto* v = dyn_cast<VarDecl>(d);
      if (v == nullptr || !v->hasAttr<CUDASharedAttr>()) continue;
      if (v->hasExternalStorage()) {
        CommentOut(s->getSourceRange(), v);
        continue;
      }
      const CharSourceRange r = FileRange(s->getSourceRange());
      if (r.isInvalid()) {
        Warn(s->getBeginLoc(), "__shared__ " + v->getName().str() +
                                   " is declared inside a macro: its accesses are not recorded");
        continue;
      }
      const unsigned at = Offset(r.getEnd());
      if (!shared_decls_.insert({at, v->getName().str()}).second) continue;
      // Each backend's shim says how an array is registered (ws_program.h, ws_program_cuda.h).
      edits_.push_back({at, at,
                        " WS_PROGRAM_SHARED(" + v->getName().str() + ", " +
                            std::to_string(shared_decls_.size()) + "u);",
                        1, 0});
    }
    return true;
  }

  bool VisitVarDecl(VarDecl* v) {
    if (IsShadowingBuiltin(v)) RenameShadow(v->getLocation(), v->getName().str());
    if (!v->isFileVarDecl() || isa<ParmVarDecl>(v)) return true;
    if (!IsProgramFile(sm_.getFileID(sm_.getExpansionLoc(v->getLocation())))) return true;
    if (v->hasAttr<CUDASharedAttr>() && v->hasExternalStorage()) {
      CommentOut(v->getSourceRange(), v, /*to_semicolon=*/true);
      return true;
    }
    const bool constant = v->hasAttr<CUDAConstantAttr>();
    if (!(constant || v->hasAttr<CUDADeviceAttr>()) || v->hasExternalStorage() ||
        IsBuiltinVariable(v) || v->isTemplated())
      return true;
    const SourceLocation semi = AfterSemicolon(v->getEndLoc());
    if (semi.isInvalid()) {
      Warn(v->getLocation(), v->getName().str() + " is declared inside a macro: not recorded");
      return true;
    }
    const std::string n = v->getName().str();
    const unsigned at = Offset(semi);
    edits_.push_back({at, at,
                      " static ::ws::prog::Symbol ws_symbol_" + n + "(&" + n + ", sizeof(" + n +
                          "), \"" + n + "\", " + (constant ? "2u" : "0u") + ");",
                      1, 0});
    return true;
  }

  bool VisitDeclRefExpr(DeclRefExpr* e) {
    auto* v = dyn_cast<VarDecl>(e->getDecl());
    if (IsShadowingBuiltin(v)) {
      RenameShadow(e->getLocation(), v->getName().str());
      return true;
    }
    if (v == nullptr || !dynamic_.count(v->getCanonicalDecl())) return true;
    const CharSourceRange r = FileRange(e->getSourceRange());
    if (r.isInvalid()) return true;
    const unsigned b = Offset(r.getBegin()), end = Offset(r.getEnd());
    if (!dynamic_uses_.insert(b).second) return true;
    edits_.push_back(
        {b, end, "(::ws::prog::Dyn<" + dynamic_.at(v->getCanonicalDecl()) + ">())", 2, 0});
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
  void Finish() {
    std::vector<Access> list;
    for (auto& [key, a] : accesses_) {
      // The thread's own arrays only where indexed at run time: the rest live in registers.
      if (!a.local || local_run_time_[a.local_decl]) list.push_back(a);
      if (a.local && local_run_time_[a.local_decl]) out_->local_arrays = true;
    }
    std::sort(list.begin(), list.end(), [](const Access& a, const Access& b) {
      return std::tie(a.begin, a.end, a.access) < std::tie(b.begin, b.end, b.access);
    });
    std::uint32_t n = rq_.site_base;
    for (const Access& a : list) {
      ++n;
      if (n > 0xffffu) {
        errors_.push_back({a.line, a.column, true,
                           "the program has more than 65535 memory accesses written in its "
                           "kernels, over Warpscope's limit of 65535 sites",
                           a.file == rq_.file_name ? std::string() : a.file});
        break;
      }
      const std::string place = std::to_string(ProgramPlace(n, a.line)) + "u";
      const char* fn = a.access == ProgramAccess::kLoad        ? "Ld"
                       : a.access == ProgramAccess::kStore     ? "St"
                       : a.access == ProgramAccess::kLoadStore ? "LdSt"
                                                               : "At";
      if (a.call) {
        edits_.push_back({a.rparen, a.rparen, ", " + place, 0, a.end - a.begin});
      } else if (a.pointer) {
        const std::string head = a.access == ProgramAccess::kAtomic ? "At" : fn;
        edits_.push_back({a.begin, a.begin, "::ws::prog::" + head + "((", 1, a.end - a.begin});
        edits_.push_back({a.end, a.end, "), " + place + ")", 0, a.end - a.begin});
      } else if (a.local) {
        edits_.push_back(
            {a.begin, a.begin, std::string("(*::ws::prog::") + fn + "(&(", 1, a.end - a.begin});
        edits_.push_back(
            {a.end, a.end, "), " + place + ", 0u, " + a.local_array + "))", 0, a.end - a.begin});
      } else {
        edits_.push_back(
            {a.begin, a.begin, std::string("(*::ws::prog::") + fn + "(&(", 1, a.end - a.begin});
        edits_.push_back({a.end, a.end,
                          "), " + place + (a.several ? ", ::ws::prog::kOpSeveral" : "") + "))", 0,
                          a.end - a.begin});
      }
      out_->sites.push_back({n, a.file, a.line, a.column, a.end_column, a.access, a.text});
    }
  }

  std::vector<Edit>& edits() { return edits_; }
  bool has_main() const { return has_main_; }
  std::vector<ProgramDiagnostic>& errors() { return errors_; }

 private:
  bool Recording() const { return in_device_ && !in_dependent_; }

  // Is `e` (an lvalue) an object in memory, rather than a local variable in registers?
  bool IsMemory(const Expr* e) const {
    e = e->IgnoreParens();
    if (const auto* a = dyn_cast<ArraySubscriptExpr>(e)) {
      if (LocalArrayOf(e) != nullptr) return true;  // local memory, if indexed at run time
      const Expr* base = a->getBase()->IgnoreParens();
      if (const auto* c = dyn_cast<ImplicitCastExpr>(base);
          c != nullptr && c->getCastKind() == CK_ArrayToPointerDecay)
        return IsMemory(c->getSubExpr());  // an array: in memory if the array is
      return true;                         // through a pointer
    }
    if (const auto* u = dyn_cast<UnaryOperator>(e)) return u->getOpcode() == UO_Deref;
    if (const auto* m = dyn_cast<MemberExpr>(e)) return m->isArrow() || IsMemory(m->getBase());
    if (const auto* d = dyn_cast<DeclRefExpr>(e)) {
      const auto* v = dyn_cast<VarDecl>(d->getDecl());
      if (v == nullptr || IsBuiltinVariable(v)) return false;
      if (dynamic_.count(v->getCanonicalDecl())) return true;
      if (v->hasAttr<CUDASharedAttr>() || v->hasAttr<CUDAConstantAttr>()) return true;
      if (v->hasAttr<CUDADeviceAttr>() && v->hasGlobalStorage()) return true;
      return v->getType()->isReferenceType();  // refers to memory somewhere
    }
    return false;
  }

  // Does another function (not a redeclaration of `f`) share its name where it is declared?
  static bool Overloaded(const FunctionDecl* f) {
    const DeclContext* dc = f->getDeclContext()->getRedeclContext();
    for (const NamedDecl* d : dc->lookup(f->getDeclName())) {
      const auto* other = dyn_cast<FunctionDecl>(d->getUnderlyingDecl());
      if (const auto* t = dyn_cast<FunctionTemplateDecl>(d->getUnderlyingDecl()))
        other = t->getTemplatedDecl();
      if (other == nullptr) continue;
      const FunctionDecl* mine =
          f->getPrimaryTemplate() != nullptr ? f->getPrimaryTemplate()->getTemplatedDecl() : f;
      if (other->getCanonicalDecl() != mine->getCanonicalDecl()) return true;
    }
    return false;
  }

  // The bytes of a kernel's own __shared__ arrays, each 16-byte aligned as the emulator
  // places them.
  std::uint64_t StaticShared(const FunctionDecl* f) const {
    std::uint64_t total = 0;
    const Stmt* body = f->getBody();
    if (body == nullptr) return 0;
    std::vector<const Stmt*> todo = {body};
    while (!todo.empty()) {
      const Stmt* s = todo.back();
      todo.pop_back();
      if (const auto* d = dyn_cast<DeclStmt>(s)) {
        for (const Decl* x : d->decls()) {
          const auto* v = dyn_cast<VarDecl>(x);
          if (v == nullptr || !v->hasAttr<CUDASharedAttr>() || v->hasExternalStorage() ||
              v->getType()->isDependentType() || v->getType()->isIncompleteType())
            continue;
          total = (total + 15) / 16 * 16 + ctx_.getTypeSizeInChars(v->getType()).getQuantity();
        }
      }
      for (const Stmt* c : s->children()) {
        if (c != nullptr) todo.push_back(c);
      }
    }
    return total;
  }

  // cudaMalloc(&d_in, n): the buffer is called d_in in every view.
  void NameAllocation(const CallExpr* e) {
    const FunctionDecl* f = e->getDirectCallee();
    if (f == nullptr || f->getIdentifier() == nullptr || e->getNumArgs() < 1) return;
    const std::string fn = f->getName().str();
    if (fn != "cudaMalloc" && fn != "cudaMallocManaged") return;
    const Expr* arg = e->getArg(0)->IgnoreParenCasts();
    const auto* addr = dyn_cast<UnaryOperator>(arg);
    if (addr == nullptr || addr->getOpcode() != UO_AddrOf) return;
    const CharSourceRange target = FileRange(addr->getSubExpr()->getSourceRange());
    const CharSourceRange call = FileRange(e->getSourceRange());
    if (target.isInvalid() || call.isInvalid()) return;
    const unsigned b = Offset(call.getBegin()), end = Offset(call.getEnd());
    if (!named_calls_.insert(b).second) return;
    std::string name = Lexer::getSourceText(target, sm_, ctx_.getLangOpts()).str();
    const std::string quoted = CString(name);
    const std::uint32_t line = sm_.getSpellingLineNumber(call.getBegin());
    edits_.push_back({b, b,
                      "(::ws::prog::NameNext(\"" + quoted + "\", " + std::to_string(line) + "u), ",
                      1, end - b + 1});
    edits_.push_back({end, end, ")", 0, end - b + 1});
  }

  // A number for the loop or function at `at`, the same wherever the program is compiled.
  std::string StaticId(SourceLocation at) const {
    const std::string where =
        DisplayName(sm_.getFileID(at)) + ":" + std::to_string(sm_.getFileOffset(at));
    std::uint32_t h = 2166136261u;
    for (unsigned char c : where) h = (h ^ c) * 16777619u;
    return std::to_string(h | 1u) + "u";  // never 0, the iterations' id
  }

  void InstrumentLoop(Stmt* loop, Stmt* body, bool is_do) {
    if (!Recording() || body == nullptr || in_constexpr_) return;
    const CharSourceRange r = FileRange(loop->getSourceRange());
    const CharSourceRange br = FileRange(body->getSourceRange());
    if (r.isInvalid() || br.isInvalid()) return;  // written by a macro: not instrumented
    const unsigned begin = Offset(r.getBegin());
    if (!instrumented_.insert(begin).second) return;
    // The loop's end: past its body's closing brace, or the semicolon of a one-statement body
    // (a do-while: the semicolon after its condition).
    const bool compound = isa<CompoundStmt>(body);
    SourceLocation body_end = br.getEnd();
    if (!compound) {
      const SourceLocation semi = AfterSemicolon(body->getEndLoc());
      if (semi.isInvalid()) return;
      body_end = semi;
    }
    SourceLocation loop_end = r.getEnd();
    if (is_do) {
      loop_end = AfterSemicolon(loop->getEndLoc());
      if (loop_end.isInvalid()) return;
    } else if (!compound) {
      loop_end = body_end;
    }
    const std::string name = "ws_loop_" + std::to_string(instrumented_.size());
    const unsigned end = Offset(loop_end), span = end - begin;
    edits_.push_back({begin, begin,
                      "{ ::ws::prog::Loop " + name + "(" + StaticId(r.getBegin()) + "); ", 1,
                      span + 1});
    edits_.push_back({end, end, " }", 0, span + 1});
    const std::string iter = "::ws::prog::Iter ws_iter(" + name + ");";
    if (compound) {
      const unsigned brace = Offset(br.getBegin()) + 1;
      edits_.push_back({brace, brace, " " + iter, 1, 0});
    } else {
      const unsigned b = Offset(br.getBegin()), e = Offset(body_end);
      edits_.push_back({b, b, "{ " + iter + " ", 1, e - b + 1});
      edits_.push_back({e, e, " }", 0, e - b + 1});
    }
  }

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
  bool UnrollConstant(const Expr* e) const {
    e = e->IgnoreParenCasts();
    if (e->isValueDependent() || e->isTypeDependent()) return false;
    if (e->isIntegerConstantExpr(ctx_)) return true;
    if (const auto* d = dyn_cast<DeclRefExpr>(e)) {
      const auto* v = dyn_cast<VarDecl>(d->getDecl());
      return v != nullptr && counters_.count(v->getCanonicalDecl()) > 0;
    }
    if (const auto* b = dyn_cast<BinaryOperator>(e))
      return !b->isAssignmentOp() && b->getOpcode() != BO_Comma && UnrollConstant(b->getLHS()) &&
             UnrollConstant(b->getRHS());
    if (const auto* u = dyn_cast<UnaryOperator>(e))
      return (u->getOpcode() == UO_Minus || u->getOpcode() == UO_Plus ||
              u->getOpcode() == UO_Not) &&
             UnrollConstant(u->getSubExpr());
    if (const auto* c = dyn_cast<ConditionalOperator>(e))
      return UnrollConstant(c->getCond()) && UnrollConstant(c->getTrueExpr()) &&
             UnrollConstant(c->getFalseExpr());
    return false;
  }
  static bool RefersTo(const Expr* e, const VarDecl* v) {
    const auto* d = dyn_cast<DeclRefExpr>(e->IgnoreParenImpCasts());
    return d != nullptr && d->getDecl()->getCanonicalDecl() == v->getCanonicalDecl();
  }
  // `for (int k = A; k < B; ++k)` with A, B and the step unroll-constant, and at most
  // kUnrollTrips trips where they are constants: k is a counter the compiler unrolls away.
  void NoteCounter(const ForStmt* s) {
    static constexpr std::int64_t kUnrollTrips = 64;
    const auto* init = dyn_cast_or_null<DeclStmt>(s->getInit());
    if (init == nullptr || !init->isSingleDecl() || s->getCond() == nullptr ||
        s->getInc() == nullptr)
      return;
    const auto* v = dyn_cast<VarDecl>(init->getSingleDecl());
    if (v == nullptr || !v->getType()->isIntegerType() || v->getInit() == nullptr ||
        !UnrollConstant(v->getInit()))
      return;
    const auto* cond = dyn_cast<BinaryOperator>(s->getCond()->IgnoreParenImpCasts());
    if (cond == nullptr || !cond->isComparisonOp()) return;
    const Expr* bound = RefersTo(cond->getLHS(), v)   ? cond->getRHS()
                        : RefersTo(cond->getRHS(), v) ? cond->getLHS()
                                                      : nullptr;
    if (bound == nullptr || !UnrollConstant(bound)) return;
    std::int64_t step = 0;
    const Expr* inc = s->getInc()->IgnoreParenImpCasts();
    if (const auto* u = dyn_cast<UnaryOperator>(inc)) {
      if (!u->isIncrementDecrementOp() || !RefersTo(u->getSubExpr(), v)) return;
      step = 1;
    } else if (const auto* c = dyn_cast<CompoundAssignOperator>(inc)) {
      if (!RefersTo(c->getLHS(), v) || !UnrollConstant(c->getRHS())) return;
      Expr::EvalResult r;
      step = (c->getOpcode() == BO_AddAssign || c->getOpcode() == BO_SubAssign) &&
                     c->getRHS()->EvaluateAsInt(r, ctx_)
                 ? std::max<std::int64_t>(1, std::llabs(r.Val.getInt().getExtValue()))
                 : 0;  // *=, >>=: few trips
    } else {
      return;
    }
    Expr::EvalResult a, b;
    if (step > 0 && v->getInit()->EvaluateAsInt(a, ctx_) && bound->EvaluateAsInt(b, ctx_) &&
        std::llabs(b.Val.getInt().getExtValue() - a.Val.getInt().getExtValue()) / step >
            kUnrollTrips)
      return;
    counters_.insert(v->getCanonicalDecl());
  }

  // Is `e` (an element or a dereference) reached through a pointer the kernel reads from memory:
  // d[i][j] with `int** d`, (*rows)[j]? Its site may reach a buffer per row: both roads key it
  // by no buffer (ws_program.h's kOpSeveral).
  static bool ThroughLoadedPointer(const Expr* e) {
    e = e->IgnoreParens();
    const Expr* base = nullptr;
    if (const auto* a = dyn_cast<ArraySubscriptExpr>(e)) {
      base = a->getBase();
    } else if (const auto* u = dyn_cast<UnaryOperator>(e);
               u != nullptr && u->getOpcode() == UO_Deref) {
      base = u->getSubExpr();
    }
    if (base == nullptr) return false;
    base = base->IgnoreParenImpCasts();
    if (!base->getType()->isPointerType()) return false;  // a row of a 2D array decays: not one
    if (isa<ArraySubscriptExpr>(base)) return true;
    const auto* u = dyn_cast<UnaryOperator>(base);
    return u != nullptr && u->getOpcode() == UO_Deref;
  }

  void AddAccess(const Expr* e, ProgramAccess kind, bool pointer = false) {
    const CharSourceRange r = FileRange(e->getSourceRange());
    if (r.isInvalid()) {
      const SourceLocation at = sm_.getExpansionLoc(e->getBeginLoc());
      if (IsProgramFile(sm_.getFileID(at))) Warn(at, "an access inside a macro is not recorded");
      return;
    }
    Access a;
    a.begin = Offset(r.getBegin());
    a.end = Offset(r.getEnd());
    a.access = kind;
    a.pointer = pointer;
    a.several = !pointer && ThroughLoadedPointer(e);
    std::vector<const Expr*> indices;
    const DeclRefExpr* ref = nullptr;
    if (const VarDecl* v = pointer ? nullptr : LocalArrayOf(e, &indices, &ref)) {
      const CharSourceRange rr = FileRange(ref->getSourceRange());
      const CharSourceRange vr = FileRange(v->getLocation());
      if (rr.isInvalid() || vr.isInvalid()) return;
      a.local = true;
      a.local_decl = Offset(vr.getBegin());
      a.local_array = Lexer::getSourceText(rr, sm_, ctx_.getLangOpts()).str();
      bool& run_time = local_run_time_[a.local_decl];
      for (const Expr* i : indices) run_time = run_time || !UnrollConstant(i);
    }
    a.file = DisplayName(sm_.getFileID(r.getBegin()));
    a.line = sm_.getSpellingLineNumber(r.getBegin());
    a.column = sm_.getSpellingColumnNumber(r.getBegin());
    if (sm_.getSpellingLineNumber(r.getEnd()) == a.line)
      a.end_column = sm_.getSpellingColumnNumber(r.getEnd());
    a.text = Lexer::getSourceText(r, sm_, ctx_.getLangOpts()).str();
    const auto key = std::make_tuple(a.begin, a.end, static_cast<int>(kind));
    accesses_.emplace(key, std::move(a));
  }

  // `extern __shared__ T s[]`: the declaration becomes a comment, each use the launch's
  // dynamic shared memory.
  void CommentOut(SourceRange decl, VarDecl* v, bool to_semicolon = false) {
    const CharSourceRange r = FileRange(decl);
    std::string elem = "char";
    if (const auto* at = dyn_cast<ArrayType>(v->getType().getTypePtr())) {
      elem = at->getElementType().getAsString(ctx_.getPrintingPolicy());
      if (TypeSourceInfo* tsi = v->getTypeSourceInfo()) {
        if (auto al = tsi->getTypeLoc().getAs<ArrayTypeLoc>()) {
          const CharSourceRange er = FileRange(al.getElementLoc().getSourceRange());
          if (er.isValid()) elem = Lexer::getSourceText(er, sm_, ctx_.getLangOpts()).str();
        }
      }
    }
    dynamic_[v->getCanonicalDecl()] = elem;
    if (r.isInvalid()) return;
    unsigned b = Offset(r.getBegin()), e = Offset(r.getEnd());
    if (to_semicolon) {
      const SourceLocation semi = AfterSemicolon(v->getEndLoc());
      if (semi.isValid()) e = Offset(semi);
    }
    if (!commented_.insert(b).second) return;
    edits_.push_back({b, b, "/* ", 1, e - b});
    edits_.push_back({e, e, " */", 0, e - b});
  }

  SourceLocation AfterSemicolon(SourceLocation end) const {
    if (!end.isFileID()) return {};
    SourceLocation at = end;
    for (int i = 0; i < 256; ++i) {
      auto t = Lexer::findNextToken(at, sm_, ctx_.getLangOpts());
      if (!t) return {};
      if (t->is(tok::semi)) return t->getEndLoc();
      at = t->getLocation();
    }
    return {};
  }

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
  std::vector<std::pair<FileID, std::vector<Edit>>> SplitEdits() const {
    std::map<FileID, std::vector<Edit>> by_file;
    for (Edit e : edits_) {
      const SourceLocation b = SourceLocation::getFromRawEncoding(e.begin);
      const FileID f = sm_.getFileID(b);
      const unsigned base = e.begin - sm_.getFileOffset(b);
      e.begin -= base;
      e.end -= base;
      by_file[f].push_back(std::move(e));
    }
    std::vector<std::pair<FileID, std::vector<Edit>>> out;
    out.emplace_back(sm_.getMainFileID(), std::move(by_file[sm_.getMainFileID()]));
    // Every program file the translation unit read, edited or not (the compile reads them from
    // where the rewritten ones are put, so that they find each other).
    std::set<std::string> seen = {MainPath().string()};
    for (unsigned i = 1; i < sm_.local_sloc_entry_size(); ++i) {
      const SrcMgr::SLocEntry& entry = sm_.getLocalSLocEntry(i);
      if (!entry.isFile()) continue;
      const FileID f = sm_.getFileID(SourceLocation::getFromRawEncoding(entry.getOffset()));
      const FileEntry* fe = sm_.getFileEntryForID(f);
      if (f == sm_.getMainFileID() || fe == nullptr || !IsProgramFile(f)) continue;
      if (!seen.insert(std::filesystem::absolute(fe->getName().str()).lexically_normal()).second)
        continue;  // included twice: its first inclusion's edits stand
      out.emplace_back(f, std::move(by_file[f]));
    }
    return out;
  }
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
  std::vector<ProgramDiagnostic> errors_;
  std::map<const VarDecl*, std::string> dynamic_;  // extern __shared__ arrays: element type
  std::set<unsigned> launch_offsets_, dynamic_uses_, commented_, named_calls_, renamed_,
      instrumented_;
  std::set<std::pair<unsigned, std::string>> shared_decls_;
  std::set<const VarDecl*> counters_;        // counters of loops the compiler unrolls away
  std::map<unsigned, bool> local_run_time_;  // the thread's arrays: indexed at run time?
};

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
