// The SIMT path's rewrite (collector.h; docs/ENGINE.md, "The SIMT engine"), shared by its two
// halves: collector_simt_check.cpp (what a kernel may hold, and the __device__ functions' warp
// functions) and collector_simt.cpp (the warp functions' text).
#pragma once

#include "collector.h"

namespace ws::rewrite_internal {

struct Collector::SimtKernel {
  const FunctionDecl* f = nullptr;
  std::map<const VarDecl*, std::string> lanes;  // the thread's variables: their Lanes<T>
  std::set<const VarDecl*> uniform;             // and those the warp holds once (uniform)
  int next = 0;                                 // for names
  bool pattern = false;                         // a template's own text (its calls unresolved)
  bool device = false;                          // a __device__ function's (return: its lanes')
  std::set<const CallExpr*> hoist;              // calls of __device__ functions' warp functions
  std::set<const CallExpr*> meetings;           // and of warp-level intrinsics (WarpCall)
  std::uint64_t bytes = 0;                      // the Lanes<T> on the warp's stack
  // A template's calls of __device__ function templates by a dependent name (`f<T>(x)`): the
  // function each names, from the template's instantiations (by the call's source location);
  // and, in the template's own text, the call's function.
  std::map<unsigned, const FunctionDecl*> resolved;
  std::map<const CallExpr*, const FunctionDecl*> callee;
  std::string Name(const char* what) { return std::string("ws_") + what + std::to_string(++next); }
};

constexpr unsigned kMaxSlots = 32;  // ws_program_simt.h's kMaxSlots: accesses in one statement
// The thread's variables, 32 times, on a warp fiber's 1 MiB stack (worker_simt.cpp), with room
// for the calls it makes.
constexpr std::uint64_t kMaxLaneBytes = 512 * 1024;

// Which of kernel `f`'s parameters are pointers it only reads through, by their uses in its body
// (every instantiation's, for a template): collector_simt_reads.cpp.
std::vector<bool> OnlyReadParams(const FunctionDecl* f);
// Does `body` change parameter `p` (collector_simt_check.cpp)?
bool Changes(const Stmt* body, const VarDecl* p);
// Is `d` inside namespace `ns` (at any depth)?
bool InNamespace(const Decl* d, const char* ns);
// A __device__ function's parameter that names an array by reference (`float (&s)[1024]`): one
// for the warp, as the array it is bound to must be (a __shared__ one: SharedArrayArgument).
bool ArrayReference(const ParmVarDecl* p);
// Whether `arg` names a __shared__ array (the one the warp's lanes all mean).
bool SharedArrayArgument(const Expr* arg);
// `block.sync()` or `cg::sync(block)` on a thread_block: the call; else null.
const Expr* BlockSync(const Expr* e);

// Adds one instantiation's hoisted calls (`from`: by source location, the function each calls) to
// a template's (`into`; `first`: the first instantiation). False where the instantiations differ:
// a location one hoists and another does not, or where they call different functions (overloads
// chosen by a dependent argument, another function template): the template's text cannot say
// which.
// Only the calls the template's text names by a dependent name count (`dependent`: their source
// locations, DependentCalls): any other is one function in every instantiation, and an
// instantiation may leave it out (`if constexpr`).
bool SameCalls(std::map<unsigned, const FunctionDecl*>& into,
               const std::map<unsigned, const FunctionDecl*>& from, bool first,
               const std::set<unsigned>& dependent);
std::set<unsigned> DependentCalls(const Stmt* body);

enum class TileCallKind { kNotTile, kTileMeets, kTileQuery };
TileCallKind TileCall(const CallExpr* c);
// collector_simt_groups.cpp: a cooperative-groups class of the shim's by name ("thread_block";
// "" for anything else); does call `c` make, take or act on a tile of more than 32 threads; is
// `f` a thread_block's own query or this_thread_block().
std::string GroupClass(QualType t);
bool MultiWarpTile(const CallExpr* c);
bool BlockQuery(const FunctionDecl* f);

// A loop's parts (a for, while or do statement); body is null for any other statement.
struct LoopParts {
  const Stmt* init = nullptr;
  const Expr* cond = nullptr;
  const Expr* inc = nullptr;
  const Stmt* body = nullptr;
  bool is_do = false;
};
LoopParts PartsOfLoop(const Stmt* s);

}  // namespace ws::rewrite_internal
