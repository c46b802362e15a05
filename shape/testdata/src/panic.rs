// A program that prints progress and then panics in a closure that the
// standard library's iterators call.
fn total(prices: &[u32], picks: &[usize]) -> u32 {
    picks.iter().map(|&i| prices[i]).sum()
}

fn main() {
    let prices: Vec<u32> = (0..3000).collect();
    for (i, p) in prices.iter().enumerate() {
        println!("priced item {:4} at {:5} cents", i, p);
    }
    let picks = vec![1, 2, 3000];
    println!("total: {}", total(&prices, &picks));
}
