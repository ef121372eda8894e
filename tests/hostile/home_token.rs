// Hostile: reads a file of the user's home at compile time and prints it as its answer.
// The test replaces CARGO_HOME_PATH with the cargo home of a fake user (a registry token
// planted in credentials.toml); a build that binds the cargo home makes this compile and
// print the token, a build that sees only the compiler's files does not compile it.
const TOKEN: &str = include_str!("CARGO_HOME_PATH/credentials.toml");

fn main() {
    println!("{}", TOKEN);
}
