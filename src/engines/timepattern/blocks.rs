//! Block-dividing of time nodes by address (paper §2.2.2, Figure 5).
//!
//! What Figure 5 means (its pseudocode tests `n == 1` and `n == size` where it means the count
//! of distinct values, never advances `j`, and recurses on a vector it is still erasing from):
//! walk the columns of the address array from the left; a column where every address has the
//! same value says nothing; a column where every address differs is where the items of one
//! block part, so the array is one block; a column with some equal values divides the array
//! into runs of equal values, and each run is divided again from the next column.
//!
//! Two fixes for real pages, both decided by the caller through `unit`:
//! - a run can be one *record* rather than a sub-list: one item with two dates ("created" and
//!   "updated"), which the paper would make a block of its own;
//! - items that are flat siblings of other dated content (a sidebar next to the posts) make a
//!   column where the posts are singleton runs; the paper would make each post a block.
//!
//! So the runs the caller calls units (a singleton run is always one) are items, and adjacent
//! units with the same signature are gathered into one block.

use std::ops::Range;

use crate::dom::Address;

/// A block: the time nodes of one subject, as units (one item each), in page order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Block {
    /// Each unit is a range of indexes into the address array.
    pub units: Vec<Range<usize>>,
}

impl Block {
    pub fn range(&self) -> Range<usize> {
        self.units[0].start..self.units[self.units.len() - 1].end
    }
}

/// Divide `addresses` (sorted, in page order) into blocks. `unit(run, column)` is asked about
/// each run of two or more addresses that agree up to `column`: `Some(signature)` when the run
/// is one item, `None` when it is a list to divide further. Singleton runs get `unit` too,
/// for their signature.
pub fn divide<K: PartialEq>(addresses: &[Address], unit: &impl Fn(Range<usize>, usize) -> Option<K>) -> Vec<Block> {
    let mut blocks = Vec::new();
    if !addresses.is_empty() {
        divide_range(addresses, 0..addresses.len(), 0, unit, &mut blocks);
    }
    blocks
}

fn value(address: &Address, column: usize) -> Option<u32> {
    address.0.get(column).copied()
}

fn divide_range<K: PartialEq>(
    addresses: &[Address],
    range: Range<usize>,
    first_column: usize,
    unit: &impl Fn(Range<usize>, usize) -> Option<K>,
    blocks: &mut Vec<Block>,
) {
    if range.len() == 1 {
        blocks.push(Block { units: vec![range] });
        return;
    }
    let longest = range.clone().map(|i| addresses[i].0.len()).max().unwrap_or(0);
    // The first column where the addresses do not all agree.
    let Some(column) = (first_column..longest).find(|&c| {
        let first = value(&addresses[range.start], c);
        range.clone().any(|i| value(&addresses[i], c) != first)
    }) else {
        // Identical addresses: one node seen twice; one item.
        blocks.push(Block { units: vec![range] });
        return;
    };
    // Runs of equal values in this column.
    let mut runs: Vec<Range<usize>> = Vec::new();
    for i in range.clone() {
        match runs.last_mut() {
            Some(run) if value(&addresses[run.start], column) == value(&addresses[i], column) => run.end = i + 1,
            _ => runs.push(i..i + 1),
        }
    }
    if runs.len() == range.len() {
        // Every address differs here: the items of one block (paper: count == size).
        blocks.push(Block { units: runs });
        return;
    }
    // Gather adjacent units with equal signatures; divide the other runs further.
    let mut open: Option<(Block, K)> = None;
    for run in runs {
        match unit(run.clone(), column) {
            Some(signature) => match &mut open {
                Some((block, open_signature)) if *open_signature == signature => block.units.push(run),
                _ => {
                    if let Some((block, _)) = open.take() {
                        blocks.push(block);
                    }
                    open = Some((Block { units: vec![run] }, signature));
                }
            },
            None => {
                if let Some((block, _)) = open.take() {
                    blocks.push(block);
                }
                divide_range(addresses, run, column + 1, unit, blocks);
            }
        }
    }
    if let Some((block, _)) = open {
        blocks.push(block);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn address(text: &str) -> Address {
        Address(text.split('.').map(|p| p.parse().unwrap()).collect())
    }

    /// Only pure addresses: singleton runs are units, signed by the rest of their address
    /// length; longer runs are lists.
    fn by_address(addresses: &[Address]) -> impl Fn(Range<usize>, usize) -> Option<usize> + '_ {
        move |run: Range<usize>, column: usize| (run.len() == 1).then(|| addresses[run.start].0.len() - column)
    }

    fn blocks_of(addresses: &[Address]) -> Vec<Vec<usize>> {
        divide(addresses, &by_address(addresses)).iter().map(|b| b.range().collect()).collect()
    }

    #[test]
    fn divides_the_papers_figure_4_into_its_three_blocks() {
        let figure_4: Vec<Address> = [
            "0.1.19.3.0.1.2.0",
            "0.1.19.3.0.1.8.0",
            "0.1.19.3.0.1.14.0",
            "0.1.19.3.1.0.1.2.0",
            "0.1.19.3.1.0.1.8.0",
            "0.1.19.3.1.0.1.14.0",
            "0.1.19.3.2.0.1.2.0",
            "0.1.19.3.2.0.1.8.0",
            "0.1.19.3.2.0.1.14.0",
        ]
        .map(address)
        .to_vec();
        let blocks = divide(&figure_4, &by_address(&figure_4));
        assert_eq!(blocks.len(), 3);
        for (b, block) in blocks.iter().enumerate() {
            assert_eq!(block.range(), b * 3..b * 3 + 3);
            // Each time node of a block is an item of its own.
            assert_eq!(block.units.len(), 3);
        }
    }

    #[test]
    fn one_list_is_one_block_and_a_lone_address_is_its_own() {
        let list = ["0.1.2.0.1", "0.1.2.1.1", "0.1.2.2.1"].map(address);
        assert_eq!(blocks_of(&list), [vec![0, 1, 2]]);
        assert_eq!(blocks_of(&[address("0.1")]), [vec![0]]);
        assert!(blocks_of(&[]).is_empty());
    }

    #[test]
    fn posts_that_are_flat_siblings_of_a_sidebar_stay_one_block() {
        // Posts are children 3..6 of the body; the sidebar (child 7) has three dated entries.
        let page =
            ["0.1.3.0", "0.1.4.0", "0.1.5.0", "0.1.6.0", "0.1.7.0.0.0", "0.1.7.0.1.0", "0.1.7.0.2.0"].map(address);
        assert_eq!(blocks_of(&page), [vec![0, 1, 2, 3], vec![4, 5, 6]]);
    }

    #[test]
    fn records_with_two_dates_are_items_not_blocks() {
        // Each post (0.1.2.i) shows "created" (…0.1.0) and "updated" (…0.1.2).
        let page =
            ["0.1.2.0.0.1.0", "0.1.2.0.0.1.2", "0.1.2.1.0.1.0", "0.1.2.1.0.1.2", "0.1.2.2.0.1.0", "0.1.2.2.0.1.2"]
                .map(address);
        let record = |run: Range<usize>, column: usize| Some(page[run.start].0.len() - column);
        let blocks = divide(&page, &record);
        assert_eq!(blocks.len(), 1);
        assert_eq!(blocks[0].units, [0..2, 2..4, 4..6]);
        // Read as lists (the paper), every post would be a block of its own.
        assert_eq!(blocks_of(&page).len(), 3);
    }
}
