/* DWARF 5 line information of a code object (-lineinfo; docs/CODEOBJ.md "Line information").
 *
 * From the line rows of the kernels and of the device functions compiled on their own
 * (co_kernel.lines, co_function.lines: code offset -> file, line, column), kernels first,
 * this builds three non-allocated sections, as the DWARF 5 standard lays them out:
 *   .debug_line   one line-number program header (the directories and files, every path
 *                 split into directory and name, inline DW_FORM_string paths) and one
 *                 sequence per piece of code: DW_LNE_set_address at its address, a row
 *                 wherever (file, line, column) changes, DW_LNE_end_sequence at its end, so
 *                 the rows cover every instruction;
 *   .debug_info   one compile unit (producer, name, comp_dir, DW_AT_stmt_list = 0, the
 *                 code's address range) with a DW_TAG_subprogram per piece: tools find the
 *                 line table through the unit;
 *   .debug_abbrev the two abbreviations those use.
 * The program uses only standard opcodes (set_file, set_column, advance_line, advance_pc,
 * copy), no special opcodes: larger, but each row is visibly one operation.
 * minimum_instruction_length is 4, as LLVM's AMDGPU backend writes (every instruction is a
 * multiple of 4 bytes).  Every address and section offset written is also listed
 * (co_debug.relocs) for the relocatable writer, which turns them into relocations.
 * requires: code addresses (the writer's layout); breaks: nothing.
 * Complexity: O(rows + files^3) (a handful of files). */
#include "image.h"

#include <string.h>

enum {
	DW_LNS_copy = 1,
	DW_LNS_advance_pc = 2,
	DW_LNS_advance_line = 3,
	DW_LNS_set_file = 4,
	DW_LNS_set_column = 5,
	DW_LNE_end_sequence = 1,
	DW_LNE_set_address = 2,
	DW_LNCT_path = 1,
	DW_LNCT_directory_index = 2,
	DW_FORM_addr = 0x01,
	DW_FORM_data4 = 0x06,
	DW_FORM_data8 = 0x07,
	DW_FORM_string = 0x08,
	DW_FORM_udata = 0x0f,
	DW_FORM_sec_offset = 0x17,
	DW_TAG_compile_unit = 0x11,
	DW_TAG_subprogram = 0x2e,
	DW_AT_name = 0x03,
	DW_AT_stmt_list = 0x10,
	DW_AT_low_pc = 0x11,
	DW_AT_high_pc = 0x12,
	DW_AT_comp_dir = 0x1b,
	DW_AT_producer = 0x25,
	DW_UT_compile = 1,
	MIN_INST_LENGTH = 4,
	LINE_BASE = -5, /* (declared as LLVM does; no special opcode is used) */
	LINE_RANGE = 14,
	OPCODE_BASE = 13,
};

static void put_u8(struct co_bytes *b, uint8_t v)
{
	co_bytes_append(b, &v, 1);
}

static void put_u16(struct co_bytes *b, uint16_t v)
{
	uint8_t e[2] = {(uint8_t)v, (uint8_t)(v >> 8)};
	co_bytes_append(b, e, 2);
}

static void put_u32(struct co_bytes *b, uint32_t v)
{
	uint8_t e[4];
	co_put32(e, v);
	co_bytes_append(b, e, 4);
}

static void put_u64(struct co_bytes *b, uint64_t v)
{
	uint8_t e[8];
	co_put64(e, v);
	co_bytes_append(b, e, 8);
}

static void put_uleb(struct co_bytes *b, uint64_t v)
{
	do {
		uint8_t byte = v & 0x7f;
		v >>= 7;
		put_u8(b, v ? byte | 0x80 : byte);
	} while (v);
}

static void put_sleb(struct co_bytes *b, int64_t v)
{
	for (;;) {
		uint8_t byte = v & 0x7f;
		v >>= 7; /* (arithmetic: C17 implementation-defined, two's complement on ours) */
		bool done = (v == 0 && !(byte & 0x40)) || (v == -1 && (byte & 0x40));
		put_u8(b, done ? byte : byte | 0x80);
		if (done)
			return;
	}
}

static void put_str(struct co_bytes *b, const char *s, size_t n)
{
	co_bytes_append(b, s, n);
	put_u8(b, 0);
}

/* A path's directory (without the last '/'; "." when it has none) and its name. */
static void split_path(const char *path, const char **dir, size_t *dir_len, const char **name)
{
	const char *slash = strrchr(path, '/');
	if (!slash) {
		*dir = ".", *dir_len = 1, *name = path;
		return;
	}
	*dir = path;
	*dir_len = slash == path ? 1 : (size_t)(slash - path);
	*name = slash + 1;
}

static bool same_dir(const struct co_line_info *li, size_t f, size_t g)
{
	const char *fdir, *gdir, *name;
	size_t flen, glen;
	split_path(li->files[f], &fdir, &flen, &name);
	split_path(li->files[g], &gdir, &glen, &name);
	return flen == glen && !memcmp(fdir, gdir, flen);
}

/* Whether file g is the first with its directory. */
static bool first_in_dir(const struct co_line_info *li, size_t g)
{
	for (size_t h = 0; h < g; h++)
		if (same_dir(li, h, g))
			return false;
	return true;
}

/* File f's directory index: directories are listed as the files first name them. */
static uint32_t dir_index(const struct co_line_info *li, size_t f)
{
	uint32_t index = 0;
	for (size_t g = 0; g <= f; g++)
		if (first_in_dir(li, g)) {
			if (same_dir(li, g, f))
				return index;
			index++;
		}
	return index; /* (not reached: g == f matches) */
}

static void put_header_tables(struct co_bytes *b, const struct co_line_info *li)
{
	put_u8(b, 1); /* directory_entry_format_count */
	put_uleb(b, DW_LNCT_path);
	put_uleb(b, DW_FORM_string);
	uint32_t ndirs = 0;
	for (size_t f = 0; f < li->nfiles; f++)
		ndirs += first_in_dir(li, f);
	put_uleb(b, ndirs);
	for (size_t f = 0; f < li->nfiles; f++)
		if (first_in_dir(li, f)) {
			const char *dir, *name;
			size_t len;
			split_path(li->files[f], &dir, &len, &name);
			put_str(b, dir, len);
		}
	put_u8(b, 2); /* file_name_entry_format_count */
	put_uleb(b, DW_LNCT_path);
	put_uleb(b, DW_FORM_string);
	put_uleb(b, DW_LNCT_directory_index);
	put_uleb(b, DW_FORM_udata);
	put_uleb(b, li->nfiles);
	for (size_t f = 0; f < li->nfiles; f++) {
		const char *dir, *name;
		size_t len;
		split_path(li->files[f], &dir, &len, &name);
		put_str(b, name, strlen(name));
		put_uleb(b, dir_index(li, f));
	}
}

static bool same_place(const struct co_line_row *a, const struct co_line_row *b)
{
	return a->file == b->file && a->line == b->line && a->column == b->column;
}

/* Records that the field at `offset` of .debug_info (or .debug_line) holds `target`'s
 * address or offset (a relocation in a relocatable object). */
static void note_reloc(struct co_debug *dbg, bool in_line, uint64_t offset,
                       enum co_debug_target target, size_t code)
{
	struct co_debug_reloc r = {in_line, offset, target, code};
	co_bytes_append(&dbg->relocs, &r, sizeof r);
}

/* Code piece p of the module: its kernels, then its device functions. */
struct piece {
	const char *name;
	size_t code_size;
	const struct co_line_row *lines;
	size_t nlines;
};

static struct piece piece_of(const struct co_module *m, size_t p)
{
	if (p < m->nkernels) {
		const struct co_kernel *k = &m->kernels[p];
		return (struct piece){k->name, k->code_size, k->lines, k->nlines};
	}
	const struct co_function *f = &m->functions[p - m->nkernels];
	return (struct piece){f->name, f->code_size, f->lines, f->nlines};
}

static bool has_rows(const struct piece *k)
{
	return k->nlines && k->code_size;
}

/* One sequence: piece i's rows from `addr`, ended at its last byte. */
static void put_sequence(struct co_debug *dbg, const struct piece *k, size_t i, uint64_t addr)
{
	struct co_bytes *b = &dbg->line;
	put_u8(b, 0); /* extended opcode */
	put_uleb(b, 9);
	put_u8(b, DW_LNE_set_address);
	note_reloc(dbg, true, b->size, CO_DT_CODE, i);
	put_u64(b, dbg->relocatable ? 0 : addr);
	struct co_line_row reg = {0, 1, 1, 0}; /* the state machine's initial registers */
	const struct co_line_row *last = NULL;
	for (size_t r = 0; r < k->nlines; r++) {
		const struct co_line_row *row = &k->lines[r];
		if ((last && same_place(row, last)) || row->offset >= k->code_size)
			continue;
		if (row->file != reg.file)
			put_u8(b, DW_LNS_set_file), put_uleb(b, row->file);
		if (row->column != reg.column)
			put_u8(b, DW_LNS_set_column), put_uleb(b, row->column);
		if (row->line != reg.line)
			put_u8(b, DW_LNS_advance_line), put_sleb(b, (int64_t)row->line - reg.line);
		if (row->offset != reg.offset)
			put_u8(b, DW_LNS_advance_pc),
			        put_uleb(b, (row->offset - reg.offset) / MIN_INST_LENGTH);
		put_u8(b, DW_LNS_copy);
		reg = *row;
		last = row;
	}
	put_u8(b, DW_LNS_advance_pc);
	put_uleb(b, (k->code_size - reg.offset) / MIN_INST_LENGTH);
	put_u8(b, 0);
	put_uleb(b, 1);
	put_u8(b, DW_LNE_end_sequence);
}

static void build_line(const struct co_module *m, const uint64_t *code_addr, struct co_debug *dbg)
{
	struct co_bytes *b = &dbg->line;
	put_u32(b, 0); /* unit_length, patched below */
	put_u16(b, 5); /* version */
	put_u8(b, 8);  /* address_size */
	put_u8(b, 0);  /* segment_selector_size */
	size_t header_length_at = b->size;
	put_u32(b, 0); /* header_length, patched below */
	put_u8(b, MIN_INST_LENGTH);
	put_u8(b, 1); /* maximum_operations_per_instruction */
	put_u8(b, 1); /* default_is_stmt */
	put_u8(b, (uint8_t)(int8_t)LINE_BASE);
	put_u8(b, LINE_RANGE);
	put_u8(b, OPCODE_BASE);
	static const uint8_t std_lengths[OPCODE_BASE - 1] = {0, 1, 1, 1, 1, 0, 0, 0, 1, 0, 0, 1};
	co_bytes_append(b, std_lengths, sizeof std_lengths);
	put_header_tables(b, m->line_info);
	co_put32(b->data + header_length_at, (uint32_t)(b->size - header_length_at - 4));
	for (size_t i = 0; i < m->nkernels + m->nfunctions; i++) {
		struct piece k = piece_of(m, i);
		if (has_rows(&k))
			put_sequence(dbg, &k, i, code_addr[i]);
	}
	co_put32(b->data, (uint32_t)(b->size - 4));
}

/* Abbreviation 1: the compile unit (with children); 2: a kernel's subprogram. */
static void build_abbrev(struct co_bytes *b)
{
	static const uint8_t unit[][2] = {
	        {DW_AT_producer, DW_FORM_string},
	        {DW_AT_name, DW_FORM_string},
	        {DW_AT_comp_dir, DW_FORM_string},
	        {DW_AT_stmt_list, DW_FORM_sec_offset},
	        {DW_AT_low_pc, DW_FORM_addr},
	        {DW_AT_high_pc, DW_FORM_data8},
	        {0, 0},
	};
	static const uint8_t subprogram[][2] = {
	        {DW_AT_name, DW_FORM_string},
	        {DW_AT_low_pc, DW_FORM_addr},
	        {DW_AT_high_pc, DW_FORM_data4},
	        {0, 0},
	};
	const uint8_t unit_head[] = {1, DW_TAG_compile_unit, 1};
	const uint8_t subprogram_head[] = {2, DW_TAG_subprogram, 0};
	co_bytes_append(b, unit_head, sizeof unit_head);
	co_bytes_append(b, unit, sizeof unit);
	co_bytes_append(b, subprogram_head, sizeof subprogram_head);
	co_bytes_append(b, subprogram, sizeof subprogram);
	put_u8(b, 0); /* end of the table */
}

static void build_info(const struct co_module *m, const uint64_t *code_addr, struct co_debug *dbg)
{
	struct co_bytes *b = &dbg->info;
	uint64_t low = UINT64_MAX, high = 0;
	size_t lowest = 0, npieces = m->nkernels + m->nfunctions; /* lowest: the piece at `low` */
	for (size_t i = 0; i < npieces; i++) {
		struct piece k = piece_of(m, i);
		if (has_rows(&k)) {
			if (code_addr[i] < low)
				low = code_addr[i], lowest = i;
			uint64_t end = code_addr[i] + k.code_size;
			high = end > high ? end : high;
		}
	}
	if (low > high)
		low = high = 0;
	put_u32(b, 0); /* unit_length, patched below */
	put_u16(b, 5);
	put_u8(b, DW_UT_compile);
	put_u8(b, 8); /* address_size */
	note_reloc(dbg, false, b->size, CO_DT_ABBREV, 0);
	put_u32(b, 0); /* debug_abbrev_offset */
	const struct co_line_info *li = m->line_info;
	const char *primary = li->nfiles ? li->files[0] : "", *dir, *name;
	size_t dir_len;
	split_path(primary, &dir, &dir_len, &name);
	put_uleb(b, 1);
	put_str(b, li->producer, strlen(li->producer));
	put_str(b, primary, strlen(primary));
	put_str(b, dir, dir_len);
	note_reloc(dbg, false, b->size, CO_DT_LINE, 0);
	put_u32(b, 0); /* DW_AT_stmt_list: the one line table */
	note_reloc(dbg, false, b->size, CO_DT_CODE, lowest);
	put_u64(b, dbg->relocatable ? 0 : low);
	put_u64(b, high - low);
	for (size_t i = 0; i < npieces; i++) {
		struct piece k = piece_of(m, i);
		if (!has_rows(&k))
			continue;
		put_uleb(b, 2);
		put_str(b, k.name, strlen(k.name));
		note_reloc(dbg, false, b->size, CO_DT_CODE, i);
		put_u64(b, dbg->relocatable ? 0 : code_addr[i]);
		put_u32(b, (uint32_t)k.code_size);
	}
	put_u8(b, 0); /* end of the unit's children */
	co_put32(b->data, (uint32_t)(b->size - 4));
}

void co_build_debug(const struct co_module *m, const uint64_t *code_addr, bool relocatable,
                    struct co_debug *out)
{
	memset(out, 0, sizeof *out);
	out->relocatable = relocatable;
	build_abbrev(&out->abbrev);
	build_info(m, code_addr, out);
	build_line(m, code_addr, out);
}

void co_debug_free(struct co_debug *dbg)
{
	co_bytes_free(&dbg->abbrev);
	co_bytes_free(&dbg->info);
	co_bytes_free(&dbg->line);
	co_bytes_free(&dbg->relocs);
}
