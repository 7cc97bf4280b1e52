#include "workloads/elf.h"

#include <cstring>
#include <fstream>
#include <iterator>
#include <limits>
#include <sstream>

#include "workloads/decoder.h"

namespace cohsim::asmx {
namespace {

// The ELF64 fields cohsim reads (the System V ABI's gABI, ELF-64 object file format).
constexpr unsigned char elf_magic[4] = {0x7f, 'E', 'L', 'F'};
constexpr unsigned elfclass64 = 2, elfdata2lsb = 1, et_exec = 2, et_dyn = 3, em_aarch64 = 183;
constexpr unsigned pt_load = 1, pf_x = 1, sht_symtab = 2, stt_object = 1, stt_func = 2;

class reader {
public:
    reader(std::string file, std::string bytes) : m_file(std::move(file)), m_b(std::move(bytes)) {}
    template <typename T>
    T at(std::uint64_t off) const {
        if (off > m_b.size() || m_b.size() - off < sizeof(T)) fail("truncated: a header points past the end of the file");
        T v{};
        std::memcpy(&v, m_b.data() + off, sizeof(T));  // little-endian host and file (x86-64, AArch64 hosts)
        return v;
    }
    const std::string& bytes() const { return m_b; }
    [[noreturn]] void fail(const std::string& what, const std::string& expected = "") const {
        throw cfg::config_error({m_file, 0, 0}, "", what,
                                expected.empty() ? "a static AArch64 executable: aarch64-linux-gnu-gcc -O2 -ffreestanding "
                                                   "-nostdlib -static -o FILE.elf FILE.c (docs/guide/c.md)"
                                                 : expected);
    }

private:
    std::string m_file, m_b;
};

bool is_branch(op o) {
    return o == op::b || o == op::bl || o == op::bcond || o == op::cbz || o == op::cbnz || o == op::tbz || o == op::tbnz;
}

}  // namespace

bool is_elf(const std::string& file) {
    std::ifstream in(file, std::ios::binary);
    char m[4] = {};
    return in.read(m, 4) && std::memcmp(m, elf_magic, 4) == 0;
}

program load_elf(const std::string& file, std::uint64_t limit) {
    std::ifstream in(file, std::ios::binary);
    if (!in) throw cfg::config_error({file, 0, 0}, "", "cannot read the ELF file", "a readable file");
    const reader r(file, std::string(std::istreambuf_iterator<char>(in), {}));
    if (r.bytes().size() < 64 || std::memcmp(r.bytes().data(), elf_magic, 4) != 0) r.fail("not an ELF file");
    if (r.at<std::uint8_t>(4) != elfclass64 || r.at<std::uint8_t>(5) != elfdata2lsb) r.fail("not a 64-bit little-endian ELF file");
    if (r.at<std::uint16_t>(18) != em_aarch64)
        r.fail("built for machine " + std::to_string(r.at<std::uint16_t>(18)) + ", not AArch64 (183)",
               "a file built by aarch64-linux-gnu-gcc, not the host's gcc");
    const auto type = r.at<std::uint16_t>(16);
    if (type == et_dyn)
        r.fail("a position-independent executable or shared object: it needs a dynamic loader's relocations",
               "-static (and -no-pie if your gcc makes PIEs by default)");
    if (type != et_exec) r.fail("an ELF file of type " + std::to_string(type) + ", not an executable (an object file? link it)");

    program p;
    p.file = file;
    p.machine_code = true;
    const auto phoff = r.at<std::uint64_t>(32), shoff = r.at<std::uint64_t>(40);
    const auto phentsize = r.at<std::uint16_t>(54), phnum = r.at<std::uint16_t>(56);
    const auto shentsize = r.at<std::uint16_t>(58), shnum = r.at<std::uint16_t>(60);
    bool have_code = false;
    std::uint64_t code_end = 0;
    for (unsigned k = 0; k < phnum; ++k) {
        const std::uint64_t h = phoff + std::uint64_t{k} * phentsize;
        if (r.at<std::uint32_t>(h) != pt_load) continue;
        const auto flags = r.at<std::uint32_t>(h + 4);
        const auto off = r.at<std::uint64_t>(h + 8), vaddr = r.at<std::uint64_t>(h + 16);
        const auto filesz = r.at<std::uint64_t>(h + 32), memsz = r.at<std::uint64_t>(h + 40);
        // A segment with no file bytes (only zero-initialised data, .bss) may
        // name any offset: the linker's is often past the end of the file.
        if (filesz > 0 && (off > r.bytes().size() || r.bytes().size() - off < filesz))
            r.fail("a segment lies past the end of the file");
        if (filesz > memsz) r.fail("a segment with more bytes in the file than in memory (FileSiz > MemSiz)");
        if (memsz > limit || vaddr > limit - memsz) {
            std::ostringstream s;
            s << "a segment at 0x" << std::hex << vaddr << "..0x" << vaddr + memsz << " reaches cohsim's own areas (0x" << limit
              << " and up: shared and private data, stacks)";
            r.fail(s.str(), "the linker's default addresses (0x400000), or -Ttext below 0x" + [&] {
                std::ostringstream h2;
                h2 << std::hex << limit;
                return h2.str();
            }());
        }
        if (filesz > 0)  // memory starts zeroed: the rest of the segment (.bss) needs nothing written
            p.image.push_back({vaddr, std::vector<std::uint8_t>(r.bytes().begin() + static_cast<std::ptrdiff_t>(off),
                                                                r.bytes().begin() + static_cast<std::ptrdiff_t>(off + filesz))});
        if (!(flags & pf_x)) continue;
        if (have_code) r.fail("more than one executable segment", "one .text (the default linker script makes one)");
        have_code = true;
        p.code_base = vaddr & ~3ULL;
        code_end = vaddr + filesz;
        for (std::uint64_t a = p.code_base; a + 4 <= code_end; a += 4) {
            const std::uint64_t o = off + (a - vaddr);
            insn i = decode(r.at<std::uint32_t>(o), a);
            i.loc = {file, 0, 0};
            p.code.push_back(std::move(i));
        }
    }
    if (!have_code) r.fail("no executable segment (no code)");
    // Direct branches: to an instruction index, or out of the program (npos: the interpreter says where).
    for (auto& i : p.code)
        if (is_branch(i.o))
            i.target = i.dest >= p.code_base && i.dest < code_end && i.dest % 4 == 0 ? static_cast<std::size_t>((i.dest - p.code_base) / 4)
                                                                                  : std::numeric_limits<std::size_t>::max();
    // Function symbols become code labels.
    p.function_end.assign(p.code.size(), false);
    bool have_symtab = false;
    for (unsigned k = 0; k < shnum; ++k) {
        const std::uint64_t s = shoff + std::uint64_t{k} * shentsize;
        if (r.at<std::uint32_t>(s + 4) != sht_symtab) continue;
        have_symtab = true;
        const auto off = r.at<std::uint64_t>(s + 24), size = r.at<std::uint64_t>(s + 32);
        const auto link = r.at<std::uint32_t>(s + 40);
        const auto entsize = r.at<std::uint64_t>(s + 56);
        const std::uint64_t strtab = r.at<std::uint64_t>(shoff + std::uint64_t{link} * shentsize + 24);
        for (std::uint64_t e = off; entsize && e + entsize <= off + size; e += entsize) {
            const auto name_off = r.at<std::uint32_t>(e);
            const auto info = r.at<std::uint8_t>(e + 4);
            const auto value = r.at<std::uint64_t>(e + 8), size = r.at<std::uint64_t>(e + 16);
            const bool function = (info & 0xf) == stt_func && value >= p.code_base && value < code_end;
            if (!function && (info & 0xf) != stt_object) continue;
            std::string name;
            for (std::uint64_t c = strtab + name_off; c < r.bytes().size() && r.bytes()[c]; ++c) name += r.bytes()[c];
            if (name.empty()) continue;
            if (function) {
                p.labels[name] = static_cast<std::size_t>((value - p.code_base) / 4);
                if (size >= 4 && size <= code_end - value)
                    p.function_end[static_cast<std::size_t>((value + size - p.code_base) / 4 - 1)] = true;
            }
            else p.objects[name] = value;
        }
    }
    if (!have_symtab) r.fail("no symbol table (a stripped file): cohsim finds each thread's function by name", "a file not stripped");
    return p;
}

std::size_t function_index(const program& p, const std::string& name, const std::string& key) {
    const auto it = p.labels.find(name);
    if (it != p.labels.end()) return it->second;
    std::string names;
    for (const auto& [n, at] : p.labels)
        if (n.rfind("__", 0) != 0) names += (names.empty() ? "" : ", ") + n;
    throw cfg::config_error({p.file, 0, 0}, key, "no function '" + name + "' in the program",
                            "one of its functions: " + (names.empty() ? std::string("(none)") : names));
}

}  // namespace cohsim::asmx
