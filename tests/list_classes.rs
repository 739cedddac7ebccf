//! The classes of list pages that the `auto` engine got wrong on sites outside the corpus
//! (issue 13), each on a small page written for its test: what every item must come out as
//! (title, link, day), whatever the site.

use chrono::DateTime;
use html2rss::dom;
use html2rss::engines::auto;
use html2rss::engines::timepattern::{DateContext, TimePatternDb};
use url::Url;

/// (title, path, day) of each item `auto` finds.
fn items(html: &str) -> Vec<(String, String, String)> {
    let doc = dom::parse_str(html, &Url::parse("https://blog.example.org/").unwrap()).unwrap();
    let context = DateContext::new(DateTime::parse_from_rfc3339("2024-06-01T12:00:00Z").unwrap());
    auto::extract(&doc, TimePatternDb::builtin(), &context)
        .page
        .items()
        .map(|i| {
            let path = i.link.as_ref().map(|l| l.path().to_string()).unwrap_or_default();
            (i.title.clone(), path, i.date.map(|d| d.format("%F").to_string()).unwrap_or_default())
        })
        .collect()
}

fn expected(posts: &[(&str, &str, &str)]) -> Vec<(String, String, String)> {
    posts.iter().map(|(t, p, d)| (t.to_string(), p.to_string(), d.to_string())).collect()
}

/// (title, path, day) of a post.
type Post = (&'static str, &'static str, &'static str);

const POSTS: [Post; 5] = [
    ("Writing a parser by hand", "/posts/hand-parser/", "2024-05-20"),
    ("Why the borrow checker said no", "/posts/borrow-checker/", "2024-04-02"),
    ("Notes from a week without a phone", "/posts/no-phone/", "2024-03-15"),
    ("Home server, second attempt", "/posts/home-server/", "2023-12-01"),
    ("Reading old papers on compilers", "/posts/old-papers/", "2023-10-09"),
];

const HEADER: &str = r#"<header><nav><a href="/">Home</a> <a href="/about/">About</a> <a href="/tags/">Tags</a>
    <a href="/archives/">Archives</a> <a href="/search/">Search</a></nav></header>"#;
const FOOTER: &str = r#"<footer><a href="https://github.com/someone" aria-label="GitHub profile"></a>
    <a href="https://social.example/@someone" aria-label="Mastodon profile"></a>
    <a href="/index.xml" aria-label="RSS feed"></a> © 2024 Someone</footer>"#;

fn long_date(day: &str) -> String {
    let date = chrono::NaiveDate::parse_from_str(day, "%F").unwrap();
    date.format("%B %-d, %Y").to_string()
}

/// Class 1: cards whose only link is an empty overlay named by `aria-label`; the title is the
/// card's heading (PaperMod's list, and many card themes).
#[test]
fn cards_whose_link_is_an_empty_overlay_give_their_heading_and_link() {
    let cards: String = POSTS
        .iter()
        .map(|(title, path, day)| {
            format!(
                r#"<article class="post-entry"><header class="entry-header"><h2>{title}</h2></header>
                <div class="entry-content"><p>A summary of the post, a sentence or two long, about {title}.</p></div>
                <footer class="entry-footer"><span title="{day} 00:00:00 +0000 UTC">{}</span> · 3 min</footer>
                <a class="entry-link" aria-label="post link to {title}" href="{path}"></a></article>"#,
                long_date(day)
            )
        })
        .collect();
    let page = format!("<html><body>{HEADER}<main class=\"main\">{cards}</main>{FOOTER}</body></html>");
    assert_eq!(items(&page), expected(&POSTS));
}

/// Class 2: archives written `date, title`: each date opens its record, so every item gets its
/// own date, not the next record's.
#[test]
fn a_date_before_its_title_dates_its_own_record() {
    let as_dl: String = POSTS
        .iter()
        .map(|(title, path, day)| format!(r#"<dt>{day}</dt><dd><a href="{path}">{title}</a></dd>"#))
        .collect();
    let as_spans: String = POSTS
        .iter()
        .map(|(title, path, day)| {
            format!(r#"<span class="date">{}</span> <a href="{path}">{title}</a><br>"#, long_date(day))
        })
        .collect();
    for list in [format!("<dl>{as_dl}</dl>"), format!("<div class=\"archive\">{as_spans}</div>")] {
        let page = format!("<html><body>{HEADER}<main><h1>Archives</h1>{list}</main>{FOOTER}</body></html>");
        assert_eq!(items(&page), expected(&POSTS), "{list}");
    }
}

/// Class 3: whole posts on the homepage. Dates quoted inside a post's text (a list of releases,
/// a paragraph) do not win over the post's own date, marked as its publication date
/// (`class="entry-date published"`, `datePublished`, "Posted on") at the record's head or foot.
#[test]
fn a_post_s_own_date_beats_dates_quoted_in_its_text() {
    let quoted = format!(
        "<p>What changed since {}:</p><ul><li>{} release</li><li>{} release</li></ul>",
        long_date("2018-05-05"),
        long_date("2018-06-06"),
        long_date("2018-07-07")
    );
    let posts: String = POSTS
        .iter()
        .enumerate()
        .map(|(k, (title, path, day))| {
            format!(
                r#"<article class="post"><h2 class="entry-title"><a href="{path}">{title}</a></h2>
                <div class="entry-content"><p>The text of the post, long enough to be a real post.</p>{}</div>
                <footer class="entry-footer">Posted on <time class="entry-date published" datetime="{day}T10:00:00+00:00">{}</time></footer></article>"#,
                if k % 2 == 0 { quoted.as_str() } else { "" },
                long_date(day)
            )
        })
        .collect();
    let page = format!("<html><body>{HEADER}<main>{posts}</main>{FOOTER}</body></html>");
    assert_eq!(items(&page), expected(&POSTS));
}

/// A record that shows when it was published and when it was updated is dated by publication.
#[test]
fn published_beats_updated_in_one_record() {
    let posts: String = POSTS
        .iter()
        .map(|(title, path, day)| {
            format!(
                r#"<div class="row"><a class="item-title" href="{path}">{title}</a>
                <div><time class="item-date">Published on: {}</time> <time class="item-date">Updated on: May 28, 2024</time></div>
                <p class="item-summary">A summary of {title}, long enough to be an excerpt.</p></div>"#,
                long_date(day)
            )
        })
        .collect();
    let page = format!("<html><body>{HEADER}<main>{posts}</main>{FOOTER}</body></html>");
    assert_eq!(items(&page), expected(&POSTS));
}

/// A block theme's query loop without post meta shows no dates, but its permalinks hold them
/// (`/2024/05/20/slug/`): each post is dated by its address; a day after now is an event's.
#[test]
fn posts_that_show_no_date_are_dated_by_their_address() {
    let mut posts: Vec<(String, String, String)> = POSTS
        .iter()
        .map(|(title, path, day)| (title.to_string(), format!("/{}{}", day.replace('-', "/"), path), day.to_string()))
        .collect();
    posts.push(("Summer meetup in the park".into(), "/2024/07/20/summer-meetup/".into(), String::new()));
    let cards: String = posts
        .iter()
        .map(|(title, path, _)| {
            format!(
                r#"<li class="wp-block-post"><h2 class="wp-block-post-title"><a href="{path}">{title}</a></h2>
                <div class="wp-block-post-excerpt"><p>A summary of {title}, long enough to be an excerpt.</p></div></li>"#
            )
        })
        .collect();
    let page = format!(
        r#"<html><body>{HEADER}<main><ul class="wp-block-post-template">{cards}</ul></main>{FOOTER}</body></html>"#
    );
    assert_eq!(items(&page), posts);
}

/// Themes built on `_s` (GeneratePress and its kin) write the update first, marked as such,
/// then the publication, both in a "posted on" wrapper: the update's own mark says what it is.
#[test]
fn an_update_marked_on_its_own_element_inside_a_posted_on_wrapper_is_no_publication() {
    let posts: String = POSTS
        .iter()
        .map(|(title, path, day)| {
            format!(
                r#"<article class="post hentry"><header class="entry-header"><h2 class="entry-title"><a href="{path}">{title}</a></h2>
                <div class="entry-meta"><span class="posted-on"><time class="updated" datetime="2024-05-30T09:12:44+01:00"
                itemprop="dateModified">2024-05-30</time><time class="entry-date published" datetime="{day}T08:00:00+01:00"
                itemprop="datePublished">{day}</time></span> <span class="byline">by <a href="/author/sam/">Sam</a></span></div></header>
                <div class="entry-summary"><p>A summary of {title}, long enough to be an excerpt.</p></div></article>"#
            )
        })
        .collect();
    let page = format!("<html><body>{HEADER}<main>{posts}</main>{FOOTER}</body></html>");
    assert_eq!(items(&page), expected(&POSTS));
}
/// Labels written after their date (Chinese and Japanese themes: `<time>…</time>发表` then
/// `<time>…</time>更新`): the label between the two dates belongs to the date it follows, so
/// the first date is the publication, not the second.
#[test]
fn a_label_after_its_date_names_that_date() {
    let posts: String = POSTS
        .iter()
        .map(|(title, path, day)| {
            format!(
                r#"<article class="card"><div class="meta"><span class="level-item"><time datetime="{day}T06:45:49.000Z">{day}</time>发表</span><span class="level-item"><time datetime="2024-05-29T01:57:23.543Z">2024-05-29</time>更新</span><span class="level-item">4 分钟读完</span></div>
                <p class="title"><a href="{path}">{title}</a></p><div class="content">A summary of {title}, long enough to be an excerpt.</div></article>"#
            )
        })
        .collect();
    let page = format!("<html><body>{HEADER}<main>{posts}</main>{FOOTER}</body></html>");
    assert_eq!(items(&page), expected(&POSTS));
}

/// Class 7: a long archive in year sections (a wrapper per year with its heading and list, some
/// years with a single post) is one list of every post, not its longest sections.
#[test]
fn a_long_archive_in_year_sections_gives_every_post() {
    let mut sections = String::new();
    let mut want = Vec::new();
    for year in (2015..=2024).rev() {
        sections.push_str(&format!(r#"<section class="year"><h2>{year}</h2><ul>"#));
        for k in 0..(year % 4 + 1) {
            let (title, path, day) = (
                format!("Post {k} of {year} about something"),
                format!("/{year}/post-{k}/"),
                format!("{year}-0{}-1{k}", k + 1),
            );
            sections.push_str(&format!(r#"<li><a href="{path}">{title}</a> <span>{}</span></li>"#, long_date(&day)));
            want.push((title, path, day));
        }
        sections.push_str("</ul></section>");
    }
    let page = format!("<html><body>{HEADER}<main><h1>Archives</h1>{sections}</main>{FOOTER}</body></html>");
    assert_eq!(items(&page), want);
}

/// A first (featured) record whose class carries another BEM modifier (`card--wide` against
/// `card--narrow`) is a record of the same kind: modifiers vary the look, not the kind.
#[test]
fn records_that_differ_only_in_a_bem_modifier_are_one_list() {
    let cards: String = POSTS
        .iter()
        .enumerate()
        .map(|(k, (title, path, day))| {
            let modifier = if k == 0 { "postShorten--thumbnailimg-top" } else { "postShorten--thumbnailimg-left" };
            format!(
                r#"<article class="postShorten {modifier}"><div class="postShorten-wrap">
                <div class="postShorten-header"><h2 class="postShorten-title"><a href="{path}">{title}</a></h2>
                <div class="postShorten-meta"><time datetime="{day}T00:00:00Z">{}</time></div></div>
                <div class="postShorten-excerpt"><p>The first lines of {title}, as an excerpt.</p>
                <p><a href="{path}">Continue reading</a></p></div></div></article>"#,
                long_date(day)
            )
        })
        .collect();
    let page = format!(
        "<html><body>{HEADER}<div id=\"main\"><section class=\"postShorten-group\">{cards}</section></div>{FOOTER}</body></html>"
    );
    assert_eq!(items(&page), expected(&POSTS));
}

/// Class "a flag for what the record holds": themes mark the posts that have a cover picture
/// (Hugo Stack's `<article class="has-image">` beside `<article class="">`, WordPress's
/// `has-post-thumbnail`). The flag says what a record happens to hold, not its kind: posts
/// with and without a picture are one list, in page order.
#[test]
fn a_flag_for_a_cover_picture_does_not_split_the_list() {
    let cards: String = POSTS
        .iter()
        .enumerate()
        .map(|(k, (title, path, _))| {
            let (class, cover) = if k % 3 == 1 {
                ("", String::new())
            } else {
                ("has-image", format!(r#"<header><a href="{path}"><img src="{path}cover.jpg" alt=""></a></header>"#))
            };
            format!(r#"<article class="{class}">{cover}<div class="article-details"><h2><a href="{path}">{title}</a></h2></div></article>"#)
        })
        .collect();
    let page = format!(
        "<html><body>{HEADER}<main><section class=\"article-list\">{cards}</section></main>{FOOTER}</body></html>"
    );
    assert_eq!(titles_and_paths(&page), posts_titles_and_paths());
}

/// Class "filter classes": a portfolio or news grid that a script filters by category gives each
/// tile its category as a class (`grid-item filter-print`, Isotope's and MixItUp's pattern):
/// the tiles of every category are one list, in page order.
#[test]
fn tiles_classed_by_their_category_are_one_list() {
    let categories = ["branding", "digital", "print"];
    let tiles: String = POSTS
        .iter()
        .enumerate()
        .map(|(k, (title, path, _))| {
            let category = categories[k % categories.len()];
            format!(r#"<div class="grid-item filter-{category}"><a class="tile" href="{path}"><img src="{path}cover.jpg" alt=""><h3>{title}</h3></a></div>"#)
        })
        .collect();
    let page = format!(
        r#"<html><body>{HEADER}<main><h1>Work</h1><ul class="filters"><li><a href="/work">All</a></li>
        <li><a href="/work?f=branding">Branding</a></li><li><a href="/work?f=print">Print</a></li></ul>
        <div class="grid">{tiles}</div></main>{FOOTER}</body></html>"#
    );
    assert_eq!(titles_and_paths(&page), posts_titles_and_paths());
}

/// Class "year-less date, dated address": a diary shows "3月4日" or "Mar 4" and links the post at
/// an address holding the whole date (`/20230304`, `/2023/03/04/`): the year is the address's,
/// not the latest such day before now.
#[test]
fn a_date_without_its_year_takes_the_year_of_its_address() {
    let days = [("20230304", "3月4日"), ("20230302", "3月2日"), ("20230228", "2月28日"), ("20230225", "2月25日")];
    let records: String = days
        .iter()
        .map(|(compact, shown)| {
            format!(
                r#"<div class="day"><h2><span class="date"><a href="/{compact}">{shown}</a></span> <span class="title"><a href="/{compact}">春の散歩 {shown}</a></span></h2><div class="body"><p>今日は少し暖かかった。</p></div></div>"#
            )
        })
        .collect();
    let page = format!(
        r#"<html lang="ja"><body><div id="title"><h1><a href="/">日記</a></h1></div><div id="days">{records}</div></body></html>"#
    );
    let dates: Vec<String> = items(&page).into_iter().map(|(_, _, day)| day).collect();
    assert_eq!(dates, ["2023-03-04", "2023-03-02", "2023-02-28", "2023-02-25"]);
}

/// Class "event in an excerpt": an undated news list whose summaries mention a day without its
/// year ("From 1 July we open longer."): that is an event the text speaks of, and no item's
/// date, neither its own nor the next one's.
#[test]
fn a_day_mentioned_in_an_excerpt_dates_no_item() {
    let summaries = ["After two years of work the result is on show.", "From 1 July we open longer on weekdays."];
    let records: String = POSTS
        .iter()
        .enumerate()
        .map(|(k, (title, path, _))| {
            let summary = summaries[k % 2];
            format!(r#"<div class="news-item"><h3><a href="{path}">{title}</a></h3><p>{summary}</p></div>"#)
        })
        .collect();
    let page = format!(
        "<html><body>{HEADER}<main><h1>News</h1><div class=\"news-list\">{records}</div></main>{FOOTER}</body></html>"
    );
    let found = items(&page);
    assert_eq!(found.len(), POSTS.len(), "{found:?}");
    assert!(found.iter().all(|(_, _, day)| day.is_empty()), "{found:?}");
}

/// Pelican's default theme shows the newest post in `<aside id="featured">` above "Other
/// articles": an aside that holds one post's `<article>` and no other headline is that post,
/// not a sidebar. A sidebar before the list (a widget of several posts) still is one.
#[test]
fn a_featured_post_in_an_aside_of_its_own_is_an_item() {
    let article = |(title, path, _): &Post, tag: &str| {
        format!(
            r#"<article class="hentry"><{tag} class="entry-title"><a href="{path}">{title}</a></{tag}>
            <footer class="post-info">By <a href="/author/claire.html">Claire</a> in <a href="/category/misc.html">misc</a></footer>
            <div class="entry-content"><p>The first lines of {title}, as a summary.</p></div>
            <a class="readmore" href="{path}">read more</a></article>"#
        )
    };
    let others: String = POSTS[1..].iter().map(|p| format!("<li>{}</li>", article(p, "h1"))).collect();
    let page = format!(
        r#"<html><body>{HEADER}
        <aside class="widget"><h2>Popular</h2><ul><li><a href="/posts/old-favourite/">An old favourite of the readers</a></li>
        <li><a href="/posts/another-favourite/">Another favourite of the readers</a></li></ul></aside>
        <aside id="featured" class="body">{}</aside>
        <section id="content" class="body"><h1>Other articles</h1><ol id="posts-list" class="hfeed">{others}</ol></section>
        {FOOTER}</body></html>"#,
        // The featured post is shown whole: its text links elsewhere too.
        article(&POSTS[0], "h1").replace(
            "</div>",
            r#"<p>The rest of it, with <a href="https://www.debian.org/releases/">the project's release notes</a>.</p></div>"#
        )
    );
    assert_eq!(titles_and_paths(&page), posts_titles_and_paths());
}

/// Ghost's default theme (Source) heads its magazine homepage with a large card and four small
/// ones, the newest posts, in a section above the `<main>` that holds the "Latest" feed: cards
/// of the feed's own kind (tag and class words) a few wrappers up are records of the list,
/// however many of them the header holds.
#[test]
fn cards_of_the_list_s_kind_in_a_header_section_above_it_are_items() {
    let posts: Vec<(String, String)> =
        (1..=9).map(|k| (format!("Story number {k} of the magazine this week"), format!("/story-{k}/"))).collect();
    let card = |(title, path): &(String, String), size: &str| {
        format!(
            r#"<article class="gh-card post{size}"><a class="gh-card-link" href="{path}"><h3 class="gh-card-title">{title}</h3>
            <p class="gh-card-excerpt">The first lines of the story, as an excerpt.</p></a></article>"#
        )
    };
    let small: String = posts[1..5].iter().map(|p| card(p, "")).collect();
    let feed: String = posts[5..].iter().map(|p| card(p, "")).collect();
    let page = format!(
        r#"<html><body>{HEADER}<div class="site-content"><section class="gh-header is-magazine">{}
        <div class="gh-header-left">{small}</div></section>
        <section class="gh-container"><h2 class="gh-container-title">Latest</h2><main class="gh-main"><div class="gh-feed">{feed}</div></main></section>
        </div>{FOOTER}</body></html>"#,
        card(&posts[0], " is-large")
    );
    assert_eq!(titles_and_paths(&page), posts);
}

/// Personal sites list their writing as links that hold a bold title and a line about it
/// (`<a><strong>Title</strong> <span>What it is about.</span></a>`, or the line after a
/// `<br>`): the bold part is the title. A bold first word that the title's own text goes on
/// from, and a bold label ("New:"), leave the whole link the title.
#[test]
fn a_bold_title_inside_a_link_with_its_description_is_the_title() {
    let entries: String = POSTS
        .iter()
        .enumerate()
        .map(|(k, (title, path, _))| match k {
            0 => format!(r#"<li><a href="{path}"><strong>{title}</strong> <span class="desc">A few words on why.</span></a></li>"#),
            1 => format!(r#"<li><a href="{path}"><b>{title}</b><br>A few words on why, after a break.</a></li>"#),
            2 => {
                let (first, rest) = title.split_once(' ').unwrap();
                format!(r#"<li><a href="{path}"><strong>{first}</strong> {rest}</a></li>"#)
            }
            3 => format!(r#"<li><a href="{path}"><strong>New:</strong> <span>{title}</span></a></li>"#),
            _ => format!(r#"<li><a href="{path}"><strong>{title}</strong><small>A few words on why.</small></a></li>"#),
        })
        .collect();
    let page = format!(
        "<html><body>{HEADER}<main><h1>Writing</h1><ul class=\"writing\">{entries}</ul></main>{FOOTER}</body></html>"
    );
    let titles: Vec<String> = items(&page).into_iter().map(|(t, _, _)| t).collect();
    let mut expected: Vec<String> = POSTS.iter().map(|(t, _, _)| t.to_string()).collect();
    expected[3] = format!("New: {}", POSTS[3].0);
    assert_eq!(titles, expected);
}

/// A title element that also shows the date (`<h2>Title <small>date</small></h2>` inside the
/// link, or "date - Title 🗃️" as the link's text) gives the title without the date, and keeps
/// the title's own symbols.
#[test]
fn a_date_inside_the_title_element_is_not_part_of_the_title() {
    let in_heading: String = POSTS
        .iter()
        .map(|(title, path, day)| {
            format!(r#"<article class="post"><a href="{path}"><h2 class="post-title">{title} <small>{day}</small></h2></a></article>"#)
        })
        .collect();
    let in_link: String = POSTS
        .iter()
        .map(|(title, path, day)| format!(r#"<li><a href="{path}">{} - {title} 🗃️</a></li>"#, long_date(day)))
        .collect();
    let page = format!("<html><body>{HEADER}<main><h1>Archives</h1>{in_heading}</main>{FOOTER}</body></html>");
    assert_eq!(items(&page), expected(&POSTS));
    let page = format!("<html><body>{HEADER}<main><h1>Archives</h1><ul>{in_link}</ul></main>{FOOTER}</body></html>");
    let with_emoji: Vec<_> = POSTS.iter().map(|(t, p, d)| (format!("{t} 🗃️"), p.to_string(), d.to_string())).collect();
    assert_eq!(items(&page), with_emoji);
}

/// An archive page that its generator declares an article (`og:type` `article`, as Hugo does
/// for every content page): the list of posts is the page's content, so it gives the items;
/// an article's related links under its text still do not.
#[test]
fn an_archive_declared_as_an_article_gives_its_posts() {
    let head = r#"<head><meta property="og:type" content="article"><title>Archives</title></head>"#;
    let list: String =
        POSTS.iter().map(|(title, path, _)| format!(r#"<li><a href="{path}">{title}</a></li>"#)).collect();
    let page = format!(
        "<html>{head}<body>{HEADER}<main><h1>Archives</h1><p>Everything I wrote.</p><h2>Posts</h2><ul>{list}</ul></main>{FOOTER}</body></html>"
    );
    let undated: Vec<_> = POSTS.iter().map(|(t, p, _)| (t.to_string(), p.to_string(), String::new())).collect();
    assert_eq!(items(&page), undated);
    let text: String = (0..12)
        .map(|k| {
            format!("<p>Paragraph {k} of the article, with enough words in it to read as the text of a real post.</p>")
        })
        .collect();
    let article = format!(
        "<html>{head}<body>{HEADER}<main><article><h1>A post</h1>{text}</article><h2>More posts</h2><ul>{list}</ul></main>{FOOTER}</body></html>"
    );
    assert_eq!(items(&article), []);
}

/// The same archive or homepage, declared an article by its generator, in two more shapes that
/// themes give it: each post with a teaser of a sentence or two under its title, and titles of
/// a few words (shorter than a headline, longer than a menu's labels).
#[test]
fn a_teaser_list_or_short_titles_declared_as_an_article_give_their_posts() {
    let head = r#"<head><meta property="og:type" content="article"><title>Someone's notes</title></head>"#;
    let teasers: String = POSTS
        .iter()
        .map(|(title, path, _)| {
            format!(
                r#"<li class="post-item"><h2><a href="{path}">{title}</a></h2>
                <p>What this post is about, said in a sentence or two for the list.</p></li>"#
            )
        })
        .collect();
    let page = format!("<html>{head}<body>{HEADER}<main><ul>{teasers}</ul></main>{FOOTER}</body></html>");
    let undated: Vec<_> = POSTS.iter().map(|(t, p, _)| (t.to_string(), p.to_string(), String::new())).collect();
    assert_eq!(items(&page), undated);
    let short = [
        ("Welcome to my new blog", "/posts/welcome/"),
        ("More ranting", "/posts/more-ranting/"),
        ("Notes on walking", "/posts/walking/"),
        ("A new desk at last", "/posts/desk/"),
        ("Why I left the city", "/posts/city/"),
    ];
    let list: String = short.iter().map(|(title, path)| format!(r#"<li><a href="{path}">{title}</a></li>"#)).collect();
    let page = format!("<html>{head}<body>{HEADER}<main><h1>Archive</h1><ul>{list}</ul></main>{FOOTER}</body></html>");
    let undated: Vec<_> = short.iter().map(|(t, p)| (t.to_string(), p.to_string(), String::new())).collect();
    assert_eq!(items(&page), undated);
}

/// Class 7: a page in sections (a portal's topics, a homepage's "Projects" and "Posts") whose
/// records are of one kind gives the records of every section, as subjects; a sidebar with
/// records of that kind does not join.
#[test]
fn sections_of_one_kind_of_record_are_one_list() {
    let card = |(title, path, day): &(&str, &str, &str)| {
        format!(
            r#"<div class="card-simple view-card"><div class="card-body"><h4 class="title"><a href="{path}">{title}</a></h4>
            <div class="meta"><span class="date">{}</span></div><p>What {title} is about, in a sentence.</p></div></div>"#,
            long_date(day)
        )
    };
    let first: String = POSTS[..2].iter().map(card).collect();
    let second: String = POSTS[2..].iter().map(card).collect();
    let sidebar = card(&("An old popular post from the sidebar", "/posts/popular/", "2020-01-01"));
    let page = format!(
        r#"<html><body>{HEADER}<main><section id="projects" class="home-section wg-portfolio"><h1>Projects</h1>
        <div class="row">{first}</div></section>
        <section id="about" class="home-section wg-about"><h1>About me</h1><p>I write about software.</p></section>
        <section id="blog" class="home-section wg-pages"><h1>Recent posts</h1><div class="row">{second}</div></section></main>
        <aside class="sidebar"><h3>Popular</h3>{sidebar}</aside>{FOOTER}</body></html>"#
    );
    assert_eq!(items(&page), expected(&POSTS));
}

/// A page that shows one post: a blog's last page, or a new blog's home. Its one `<article>`
/// (with a `<time>`, or without where nothing else marks it; else the one heading of the
/// content that links to another page) and a headline linking to the post is the item, not the
/// theme's credits or social links in the footer; an article page (its headline links to
/// itself) keeps no item.
#[test]
fn a_page_that_shows_one_post_gives_that_post() {
    let (title, path, day) = POSTS[4];
    let card = format!(
        r#"<article class="index-info"><h2><a href="{path}">{title}</a></h2>
        <a class="excerpt" href="{path}"><div>A short excerpt of the post.</div></a>
        <div class="meta"><time datetime="{day} 09:42">{day}</time> <a href="/categories/notes/">notes</a></div></article>"#
    );
    let credits = r#"<footer>© 2024 Someone · Powered by <a href="https://hexo.io/">Hexo</a> and
        <a href="https://github.com/fluid-dev/hexo-theme-fluid">Fluid</a></footer>"#;
    let last_page = format!(
        r#"<html><body>{HEADER}<main>{card}<nav aria-label="navigation"><a rel="prev" href="/">1</a> 2</nav></main>
        {credits}</body></html>"#
    );
    assert_eq!(items(&last_page), expected(&[POSTS[4]]));

    // A theme that shows no dates: the `<article>` alone marks the post.
    let undated = format!(
        r#"<html><body>{HEADER}<main><article><h2><a href="{path}">{title}</a></h2><p>A short excerpt of the
        post.</p></article><nav class="pagination"><a href="/">Newer posts</a></nav></main>{FOOTER}</body></html>"#
    );
    assert_eq!(items(&undated), expected(&[(title, path, "")]));

    // No element marks the post at all: its heading, the one in the content that links to
    // another page, does.
    let unmarked = format!(
        r#"<html><body>{HEADER}<main><div class="post"><h2><a href="{path}">{title}</a></h2><p>A short
        excerpt.</p><a href="{path}">Read more</a></div><div class="pagination"><a href="/">« Prev</a></div></main>
        {credits}</body></html>"#
    );
    assert_eq!(items(&unmarked), expected(&[(title, path, "")]));

    let own = format!(
        r#"<html><head><meta property="og:type" content="article"></head><body>{HEADER}<main><article>
        <h1><a href="/">Notes from the hill</a></h1><time datetime="{day}">{day}</time><p>A short note.</p>
        </article></main>{credits}</body></html>"#
    );
    assert!(items(&own).iter().all(|(_, p, _)| p != "/"), "{:?}", items(&own));
}

/// Cards whose title is a heading that links nowhere, and whose link is a "Read more" or a
/// thumbnail without alternative text: the heading names the card's link (as an overlay's
/// `aria-label` does), so the posts are found, not the menu.
#[test]
fn a_card_s_unlinked_heading_names_its_read_more_or_thumbnail_link() {
    let undated: Vec<(&str, &str, &str)> = POSTS.iter().map(|&(t, p, _)| (t, p, "")).collect();
    let read_more: String = POSTS
        .iter()
        .map(|(title, path, _)| {
            format!(
                r#"<div class="card"><h3>{title}</h3><p>A summary of the post, a sentence or two long.</p>
                <a href="{path}">Read more →</a></div>"#
            )
        })
        .collect();
    let page = format!("<html><body>{HEADER}<main>{read_more}</main>{FOOTER}</body></html>");
    assert_eq!(items(&page), expected(&undated));

    let thumbnails: String = POSTS
        .iter()
        .map(|(title, path, _)| {
            format!(
                r#"<div class="card"><a href="{path}"><img src="/cover.jpg"></a><h3>{title}</h3>
                <p>A summary of the post, a sentence or two long.</p></div>"#
            )
        })
        .collect();
    let page = format!("<html><body>{HEADER}<main>{thumbnails}</main>{FOOTER}</body></html>");
    assert_eq!(items(&page), expected(&undated));

    // WordPress's post template: "Read more" with the title for screen readers only.
    let spoken: String = POSTS
        .iter()
        .map(|(title, path, _)| {
            format!(
                r#"<li class="wp-block-post"><h2 class="wp-block-post-title">{title}</h2><p>A summary of the post.</p>
                <a class="wp-block-read-more" href="{path}">Read more<span class="screen-reader-text">: {title}</span></a></li>"#
            )
        })
        .collect();
    let page = format!(r#"<html><body>{HEADER}<ul class="wp-block-post-template">{spoken}</ul>{FOOTER}</body></html>"#);
    assert_eq!(items(&page), expected(&undated));

    // A button in a language or wording no list of phrases holds ("続きを見る", "En savoir
    // plus", "Go somewhere"): the same words on a link to each post are the button's label.
    for label in ["続きを見る", "En savoir plus", "继续阅读", "Go somewhere"] {
        let buttons: String = POSTS
            .iter()
            .map(|(title, path, _)| {
                format!(
                    r#"<article class="post-preview"><h2 class="post-title">{title}</h2>
                    <p>A summary of the post, a sentence or two long.</p><a class="btn" href="{path}">{label}</a></article>"#
                )
            })
            .collect();
        let page = format!("<html><body>{HEADER}<main>{buttons}</main>{FOOTER}</body></html>");
        assert_eq!(items(&page), expected(&undated), "{label}");
    }
}

/// WordPress's classic themes (Twenty Ten to Twelve and the many made from them) link the date
/// to the post with the time of day as the link's tooltip: `<a title="4:02 pm"><time
/// datetime="…">November 20, 2023</time></a>`. A tooltip that is only a time gives no day:
/// each post keeps the day its `<time>` shows, not the day the page was read.
#[test]
fn a_time_of_day_tooltip_does_not_replace_the_day_it_links() {
    let posts: String = POSTS
        .iter()
        .map(|(title, path, day)| {
            format!(
                r#"<article class="post"><h2 class="entry-title"><a href="{path}" rel="bookmark">{title}</a></h2>
                <p>A summary of the post, a sentence or two long, about {title}.</p>
                <footer class="entry-meta">Posted on <a href="{path}" title="4:02 pm" rel="bookmark"><time
                class="entry-date" datetime="{day}T16:02:00+00:00">{}</time></a> by Maria</footer></article>"#,
                long_date(day)
            )
        })
        .collect();
    let page = format!("<html><body>{HEADER}<main>{posts}</main>{FOOTER}</body></html>");
    assert_eq!(items(&page), expected(&POSTS));

    // Twenty Ten: the date is a span inside the link.
    let spans = page
        .replace("<time\n                class=\"entry-date\"", "<span class=\"entry-date\"")
        .replace("</time>", "</span>");
    assert_eq!(items(&spans), expected(&POSTS));
}

/// Archives that write each post's day and month in elements of their own before its link,
/// the year once above the group (Jekyll's Chirpy: `<span class="day">12</span><span
/// class="month">Mar</span><a>…</a>`, and the calendar badges of many themes): the day and
/// month together are the date, completed by the group's year.
#[test]
fn a_day_and_month_in_elements_of_their_own_before_the_link_date_the_post() {
    // (year, its posts), newest first.
    let mut by_year: Vec<(String, Vec<Post>)> = Vec::new();
    for post in POSTS {
        let year = post.2[..4].to_string();
        match by_year.last_mut() {
            Some((y, posts)) if *y == year => posts.push(post),
            _ => by_year.push((year, vec![post])),
        }
    }
    let archive: String = by_year
        .iter()
        .map(|(year, posts)| {
            let items: String = posts
                .iter()
                .map(|(title, path, day)| {
                    let date = chrono::NaiveDate::parse_from_str(day, "%F").unwrap();
                    format!(
                        r#"<li><span class="date day">{}</span><span class="date month">{}</span><a href="{path}">{title}</a></li>"#,
                        date.format("%d"),
                        date.format("%b")
                    )
                })
                .collect();
            format!(r#"<time class="year">{year}</time><ul>{items}</ul>"#)
        })
        .collect();
    let page = format!(
        "<html><body>{HEADER}<main><h1>Archives</h1><div id=\"archives\">{archive}</div></main>{FOOTER}</body></html>"
    );
    assert_eq!(items(&page), expected(&POSTS));
}

/// Card grids built with utility classes (Hugo's Blowfish, many Tailwind, Next.js and Webflow
/// sites) make the whole card one link, and the title a plain `<div>` (styled bold, no heading,
/// no `title` class) above the meta line and the summary. The title is the card's block that
/// the link's address names (its slug's words), not the whole card's text.
#[test]
fn a_card_that_is_one_link_is_titled_by_the_block_its_address_names() {
    let cards: String = POSTS
        .iter()
        .map(|(title, path, day)| {
            format!(
                r#"<a class="article" href="{path}"><div class="thumbnail" style="background-image:url({path}cover.jpg)"></div>
                <div><div class="items-center text-xl"><div class="font-bold text-xl">{title}</div></div>
                <div class="meta"><span>{}</span><span>&middot;</span><span>1240 words</span><span>&middot;</span><span>6 mins</span></div>
                <div class="summary">A short summary of the post that runs for a sentence.</div></div></a>"#,
                long_date(day)
            )
        })
        .collect();
    let page =
        format!("<html><body>{HEADER}<main><h1>Posts</h1><section>{cards}</section></main>{FOOTER}</body></html>");
    assert_eq!(items(&page), expected(&POSTS));
}

/// Blogger's layouts (and day-grouped news and forum pages) head each day's posts with the
/// day, once, and give each post only its time of day ("Posted by Maria at 9:40 PM"). A time
/// of day under a day heading is on that day, not on the day the page was read.
#[test]
fn a_time_of_day_under_a_day_heading_is_on_that_day() {
    let days = [
        ("Tuesday, March 12, 2024", ["9:40 PM", "6:40 PM", "3:40 PM"], "2024-03-12"),
        ("Monday, March 4, 2024", ["1:40 PM", "10:40 AM", "7:40 AM"], "2024-03-04"),
    ];
    let mut posts: Vec<(String, String, String)> = Vec::new();
    let groups: String = days
        .iter()
        .map(|(heading, times, day)| {
            let records: String = times
                .iter()
                .map(|time| {
                    let n = posts.len();
                    let (title, path) = (format!("Garden diary entry number {n}"), format!("/2024/03/entry-{n}.html"));
                    let record = format!(
                        r#"<div class="post-outer"><h3 class="post-title"><a href="{path}">{title}</a></h3>
                        <div class="post-body">A short paragraph about the day in the garden.</div>
                        <div class="post-footer">Posted by Maria at <a class="timestamp-link" href="{path}" title="permanent link">{time}</a>
                        <a href="{path}#comment-form">2 comments:</a></div></div>"#
                    );
                    posts.push((title, path, day.to_string()));
                    record
                })
                .collect();
            format!(r#"<div class="date-outer"><h2 class="date-header"><span>{heading}</span></h2><div class="date-posts">{records}</div></div>"#)
        })
        .collect();
    let page = format!("<html><body>{HEADER}<div class=\"blog-posts\">{groups}</div>{FOOTER}</body></html>");
    assert_eq!(items(&page), posts);
}

/// An undated homepage lists the posts and, in the same kind of list further down, other
/// sites: the author's projects on a code host, a blogroll of friends (`友情链接`). The posts
/// are the site's own pages; a section of the list whose every link leaves the site is links
/// elsewhere, not more posts.
#[test]
fn a_section_of_links_to_other_sites_is_not_more_of_the_site_s_posts() {
    let undated: Vec<Post> = POSTS.iter().map(|&(t, p, _)| (t, p, "")).collect();
    let posts: String =
        POSTS.iter().map(|(title, path, _)| format!(r#"<li><a href="{path}">{title}</a></li>"#)).collect();
    let projects: String = [
        ("tinydb", "a tiny key value store written in Rust for fun"),
        ("dotfiles", "my configuration files for zsh, vim and tmux"),
        ("lispy", "a small Lisp interpreter in Python, with tests"),
        ("weather-cli", "the weather in the terminal, from a free API"),
    ]
    .iter()
    .map(|(name, about)| format!(r#"<li><a href="https://github.com/someone/{name}">{name}</a> - {about}</li>"#))
    .collect();
    let page = format!(
        r#"<html><body>{HEADER}<main><section><h2>Recent posts</h2><ul>{posts}</ul></section>
        <section><h2>Projects</h2><ul>{projects}</ul></section></main>{FOOTER}</body></html>"#
    );
    assert_eq!(items(&page), expected(&undated));

    let cards = |items: &[(String, String)]| -> String {
        items
            .iter()
            .map(|(title, href)| {
                format!(r#"<div class="item"><a class="title" href="{href}">{title}</a><div class="desc">A line about it.</div></div>"#)
            })
            .collect()
    };
    let own: Vec<(String, String)> = POSTS.iter().map(|(t, p, _)| (t.to_string(), p.to_string())).collect();
    let friends: Vec<(String, String)> = ["alice.dev", "bob.blog", "carol.io", "dave.net", "eve.org", "frank.me"]
        .iter()
        .map(|host| (format!("The blog of {host}"), format!("https://{host}/")))
        .collect();
    let page = format!(
        r#"<html><body>{HEADER}<main><h1>Blog</h1>{}<h2>Friends</h2><div class="friends">{}</div></main>{FOOTER}</body></html>"#,
        cards(&own),
        cards(&friends)
    );
    assert_eq!(items(&page), expected(&undated));
}

/// Changelogs and release pages head each release with its version and its date ("3.4.0 -
/// 2024-05-20"): a version is one number of three parts, not a German day and month (`3.4.`)
/// with a digit after it, and the release is titled by its version and dated by its date.
#[test]
fn a_version_number_is_not_a_date() {
    let releases = [("3.4.0", "2024-05-20"), ("3.3.1", "2024-04-02"), ("3.3.0", "2024-03-15"), ("3.2.2", "2023-12-01")];
    let sections: String = releases
        .iter()
        .map(|(version, day)| {
            format!(
                r#"<h2 id="v{version}"><a href="https://code.example/acme/p/releases/v{version}">{version}</a> - {day}</h2>
                <h3>Fixed</h3><ul><li>Panic on empty input.</li><li>Off-by-one in spans.</li></ul>"#
            )
        })
        .collect();
    let page = format!("<html><body>{HEADER}<main><h1>Changelog</h1>{sections}</main>{FOOTER}</body></html>");
    let found: Vec<(String, String)> = items(&page).into_iter().map(|(title, _, day)| (title, day)).collect();
    let want: Vec<(String, String)> = releases.iter().map(|(v, d)| (v.to_string(), d.to_string())).collect();
    assert_eq!(found, want);
}

/// A code forge's releases page links each release at `/releases/tag/v2.14.0`: a tag of the
/// repository named by its version, not a blog's tag page, so the releases are the items.
#[test]
fn a_release_s_tag_link_is_its_headline() {
    let releases =
        [("v2.14.0", "2024-05-20"), ("v2.13.2", "2024-04-02"), ("v2.13.1", "2024-03-15"), ("v2.13.0", "2023-12-01")];
    let articles: String = releases
        .iter()
        .map(|(version, day)| {
            format!(
                r#"<article class="release"><h2><a href="/acme/kit/releases/tag/{version}">{version}</a></h2>
                <time datetime="{day}">{day}</time><p>Bug fixes and improvements.</p></article>"#
            )
        })
        .collect();
    let page = format!("<html><body>{HEADER}<main>{articles}</main>{FOOTER}</body></html>");
    let expected: Vec<(String, String, String)> =
        releases.iter().map(|(v, d)| (v.to_string(), format!("/acme/kit/releases/tag/{v}"), d.to_string())).collect();
    assert_eq!(items(&page), expected);
}

/// News lists write each story's `<time datetime>` with a visible text whose format varies
/// (one story without its time of day, "21 Nov 2026" among "25 Nov 2026, 16:40"). The odd one
/// out falls in a group of its own, but its machine-readable date is still the story's.
#[test]
fn a_machine_readable_date_of_an_odd_format_still_dates_its_record() {
    let stories: String = POSTS
        .iter()
        .enumerate()
        .map(|(i, (title, path, day))| {
            let shown = if i == 3 { long_date(day) } else { format!("{}, 16:40", long_date(day)) };
            format!(
                r#"<article class="story"><h3><a href="{path}">{title}</a></h3>
                <time datetime="{day}T16:40:00Z">{shown}</time></article>"#
            )
        })
        .collect();
    let page = format!("<html><body>{HEADER}<main>{stories}</main>{FOOTER}</body></html>");
    assert_eq!(items(&page), expected(&POSTS));
}

/// Release notes and full posts hold links inside their sentences ("Full Changelog: v1...v2",
/// "thanks to @alice"), often longer than the record's own short title link ("v2.13.2"). A
/// link that a sentence runs into points away from the post; the record's title stands alone.
#[test]
fn a_link_inside_a_sentence_is_not_the_record_s_headline() {
    let releases =
        [("v2.14.0", "2024-05-20"), ("v2.13.2", "2024-04-02"), ("v2.13.1", "2024-03-15"), ("v2.13.0", "2023-12-01")];
    let articles: String = releases
        .iter()
        .map(|(version, day)| {
            format!(
                r#"<article class="release"><time datetime="{day}">{day}</time><div class="box">
                <span class="f1 text-bold"><a href="/acme/kit/releases/{version}">{version}</a></span>
                <div class="notes"><p>Fix race in the watcher.</p>
                <p>Full Changelog: <a href="/acme/kit/compare/prev...{version}">prev...{version}</a></p>
                <ul><li>Bump serde to the latest release by <a href="/apps/dependabot">@dependabot-preview</a></li></ul>
                </div></div></article>"#
            )
        })
        .collect();
    let page = format!("<html><body>{HEADER}<main>{articles}</main>{FOOTER}</body></html>");
    let expected: Vec<(String, String, String)> =
        releases.iter().map(|(v, d)| (v.to_string(), format!("/acme/kit/releases/{v}"), d.to_string())).collect();
    assert_eq!(items(&page), expected);
}

/// German and Dutch news sites mark where long compounds may break with soft hyphens
/// (`Strom&shy;preise`); they never show unless the line breaks there, so titles hold none.
#[test]
fn a_soft_hyphen_is_no_part_of_a_title() {
    let stories = [
        (
            "Strom&shy;preise steigen im Winter",
            "Strompreise steigen im Winter",
            "/wirtschaft/strompreise/",
            "2024-05-20",
        ),
        (
            "Bundes&shy;verfassungs&shy;gericht urteilt",
            "Bundesverfassungsgericht urteilt",
            "/politik/urteil/",
            "2024-04-02",
        ),
        ("Neue Fahrrad&shy;wege in der Stadt", "Neue Fahrradwege in der Stadt", "/lokal/radwege/", "2024-03-15"),
        ("Wetter&shy;dienst warnt vor Glätte", "Wetterdienst warnt vor Glätte", "/wetter/glaette/", "2023-12-01"),
    ];
    let teasers: String = stories
        .iter()
        .map(|(shown, _, path, day)| {
            format!(
                r#"<article class="teaser"><h3><a href="{path}">{shown}</a></h3>
                <time datetime="{day}T09:00:00+01:00">{day}</time></article>"#
            )
        })
        .collect();
    let page = format!("<html><body>{HEADER}<main>{teasers}</main>{FOOTER}</body></html>");
    assert_eq!(items(&page), expected(&stories.map(|(_, title, path, day)| (title, path, day))));
}

/// (title, path) of each item `auto` finds.
fn titles_and_paths(html: &str) -> Vec<(String, String)> {
    items(html).into_iter().map(|(title, path, _)| (title, path)).collect()
}

fn posts_titles_and_paths() -> Vec<(String, String)> {
    POSTS.iter().map(|(title, path, _)| (title.to_string(), path.to_string())).collect()
}

/// Card grids stretch an empty or "Read more" link over each card while the title is a plain
/// heading, and the card also links its topic chip and its author: the heading names the card.
#[test]
fn an_overlay_read_more_over_a_card_with_topic_and_author_links_is_named_by_its_heading() {
    let cards: String = POSTS
        .iter()
        .map(|(title, path, _)| {
            format!(
                r#"<article class="post-tile"><div class="inner"><a class="chip" href="/topics/notes/">Notes</a>
                <h3>{title}</h3><p>A summary of the post, a sentence or two long.</p>
                <div class="byline"><a href="/authors/sam/">Sam Doe</a></div></div>
                <a class="overlay" href="{path}"><span class="sr-only">Read more</span></a></article>"#
            )
        })
        .collect();
    let page = format!("<html><body>{HEADER}<main><div class=\"tiles\">{cards}</div></main>{FOOTER}</body></html>");
    assert_eq!(titles_and_paths(&page), posts_titles_and_paths());
}

/// Story cards link the post from their picture (its `alt` is the title) and from a button
/// ("Read story", "Learn more") under a heading that links nowhere: the button names no item.
#[test]
fn a_call_to_read_under_an_unlinked_heading_is_no_title() {
    let cards: String = POSTS
        .iter()
        .map(|(title, path, _)| {
            format!(
                r#"<div class="col"><div class="story-card"><a href="{path}"><img src="/i.jpg" alt="{title}"></a>
                <div class="body"><p class="place">Kenya</p><h4>{title}</h4>
                <a href="{path}" class="btn">Read story</a></div></div></div>"#
            )
        })
        .collect();
    let page = format!(
        r#"<html><body>{HEADER}<main><div class="row">{cards}</div>
        <div class="cta"><a href="/donate/" class="btn">Donate</a> <a href="/fundraise/" class="btn">Fundraise</a></div>
        </main>{FOOTER}</body></html>"#
    );
    assert_eq!(titles_and_paths(&page), posts_titles_and_paths());
}

/// An archive that links each post twice, its title and then its subtitle, is titled by the
/// first link even where the subtitle is the longer.
#[test]
fn a_post_linked_by_its_title_then_by_a_longer_subtitle_is_titled_by_the_first() {
    let rows: String = POSTS
        .iter()
        .map(|(title, path, _)| {
            format!(
                r#"<div class="row"><div class="text"><div class="t"><a href="{path}">{title}</a></div>
                <div class="sub"><a href="{path}">A subtitle that says at more length what the post is about</a></div>
                <div class="meta"><span>Sam Doe</span></div></div></div>"#
            )
        })
        .collect();
    let page = format!("<html><body>{HEADER}<main><div class=\"archive\">{rows}</div></main>{FOOTER}</body></html>");
    assert_eq!(titles_and_paths(&page), posts_titles_and_paths());
}

/// Magazine and news themes show the latest or featured post as a hero in a section of its own
/// above the grid, marked up unlike the grid's cards: it is one of the items. A row of tabs
/// above the list (`section-headline`) linking pages of the same address shape is none.
#[test]
fn a_hero_post_above_the_grid_in_a_section_of_its_own_is_an_item() {
    let (hero, rest) = POSTS.split_first().unwrap();
    let cards: String = rest
        .iter()
        .map(|(title, path, _)| {
            format!(
                r#"<article class="card"><a href="{path}" class="card-link"><img src="/c.jpg" alt="">
                <div class="cat">News</div><h3>{title}</h3><p>A short summary of the post.</p></a></article>"#
            )
        })
        .collect();
    let page = format!(
        r#"<html><body>{HEADER}<main><section class="hero"><div class="wrap"><a href="{}" class="hero-link">
        <img src="/h.jpg" alt=""><span class="pill">Featured</span><h2 class="hero-title">{}</h2>
        <p>The lead story, told in a sentence.</p></a></div></section>
        <section class="latest"><div class="section-headline"><a href="/posts/all/">All posts</a> <a href="/posts/popular/">Popular</a></div>
        <div class="container"><div class="grid">{cards}</div></div></section></main>{FOOTER}</body></html>"#,
        hero.1, hero.0
    );
    assert_eq!(titles_and_paths(&page), posts_titles_and_paths());
}

/// A news section front: a hero story, a grid of four cards and a list of eight headlines
/// below, each marked up its own way (`h2`, `h3`, `h4` in plain `<li>`s): every story is an
/// item, not only the biggest group's.
#[test]
fn a_hero_a_grid_and_a_list_of_headlines_on_a_section_front_are_all_items() {
    let stories: Vec<(String, String)> = (1..=13)
        .map(|n| (format!("Story number {n} of the world desk today"), format!("/world/2024/story-number-{n}")))
        .collect();
    let teaser = |(title, path): &(String, String), heading: &str, image: bool| {
        let image = if image {
            format!(r#"<a class="media" href="{path}"><img src="/i.jpg" alt=""></a>"#)
        } else {
            String::new()
        };
        format!(r#"<div class="item">{image}<{heading}><a href="{path}">{title}</a></{heading}></div>"#)
    };
    let grid: String = stories[1..5].iter().map(|s| format!("<li>{}</li>", teaser(s, "h3", true))).collect();
    let list: String = stories[5..].iter().map(|s| format!("<li>{}</li>", teaser(s, "h4", false))).collect();
    let page = format!(
        r#"<html><body>{HEADER}<main><h1>World</h1><section class="hero">{}<p>The lead, in a sentence.</p></section>
        <section class="grid"><ul>{grid}</ul></section>
        <section class="list"><h2>More world news</h2><ul>{list}</ul></section></main>
        <aside><h2>Most read</h2><ol><li><a href="/sport/2024/final">Cup final</a></li><li><a href="/arts/2024/show">A show</a></li></ol></aside>
        {FOOTER}</body></html>"#,
        teaser(&stories[0], "h2", true)
    );
    assert_eq!(titles_and_paths(&page), stories);
}

/// News lists date today's stories "N hours ago", then one "yesterday", then full dates: each
/// way of writing falls in a group of its own, and the lone "yesterday" is its record's date
/// even when the story before it has a longer headline than its own.
#[test]
fn a_lone_yesterday_among_hours_ago_dates_its_own_story() {
    let stories = [
        ("Council approves the budget", "/n/budget", "2 hours ago", "2024-06-01"),
        (
            "Rail strike leaves thousands of commuters stranded across the north",
            "/n/strike",
            "6 hours ago",
            "2024-06-01",
        ),
        ("Museum reopens", "/n/museum", "yesterday", "2024-05-31"),
        ("New bridge opens to traffic", "/n/bridge", "May 30, 2024", "2024-05-30"),
        ("Library extends weekend hours", "/n/library", "May 29, 2024", "2024-05-29"),
        ("Storm warning issued for the coast", "/n/storm", "May 28, 2024", "2024-05-28"),
    ];
    let rows: String = stories
        .iter()
        .map(|(title, path, shown, _)| {
            format!(r#"<li class="item"><a href="{path}">{title}</a> <span class="meta">News • <span class="time">{shown}</span></span></li>"#)
        })
        .collect();
    let page =
        format!("<html><body>{HEADER}<main><h1>News</h1><ul class=\"list\">{rows}</ul></main>{FOOTER}</body></html>");
    assert_eq!(items(&page), expected(&stories.map(|(title, path, _, day)| (title, path, day))));
}

/// Arabic news sites write dates in Arabic-Indic digits (`٢٥ مايو ٢٠٢٤`, `٢٨/٠٥/٢٠٢٤`); they
/// are the same numbers as Western digits.
#[test]
fn dates_in_arabic_indic_digits_are_read() {
    let stories = [
        ("البرلمان يقر الموازنة", "/news/budget", "٣٠ مايو ٢٠٢٤", "2024-05-30"),
        ("افتتاح جسر جديد", "/news/bridge", "٢٩ مايو ٢٠٢٤", "2024-05-29"),
        ("المكتبة تمدد ساعات العمل", "/news/library", "٢٨ مايو ٢٠٢٤", "2024-05-28"),
        ("تحذير من عاصفة على الساحل", "/news/storm", "٢٧ مايو ٢٠٢٤", "2024-05-27"),
    ];
    let rows: String = stories
        .iter()
        .map(|(title, path, shown, _)| {
            format!(r#"<article class="story"><h3><a href="{path}">{title}</a></h3><span class="date">{shown}</span></article>"#)
        })
        .collect();
    let page = format!(r#"<html lang="ar" dir="rtl"><body>{HEADER}<main>{rows}</main>{FOOTER}</body></html>"#);
    assert_eq!(items(&page), expected(&stories.map(|(title, path, _, day)| (title, path, day))));
}

/// A news section front shows its top story above the "Latest" list, in a section of its own
/// and dated like the list: it is the first item.
#[test]
fn a_dated_top_story_above_the_latest_list_is_an_item() {
    let (lead, rest) = POSTS.split_first().unwrap();
    let rows: String = rest
        .iter()
        .map(|(title, path, day)| format!(r#"<li><a href="{path}">{title}</a> <time>{}</time></li>"#, long_date(day)))
        .collect();
    let page = format!(
        r#"<html><body>{HEADER}<main><h1>Politics</h1><section class="top"><div class="item item--lead">
        <a href="{}"><img src="/l.jpg" alt=""><h2>{}</h2></a><p>What the story says, in a sentence.</p>
        <div class="meta"><time>{}</time></div></div></section>
        <section class="list"><h2>Latest</h2><ul>{rows}</ul></section></main>{FOOTER}</body></html>"#,
        lead.1,
        lead.0,
        long_date(lead.2)
    );
    assert_eq!(items(&page), expected(&POSTS));
    // The time patterns alone (`extract --algorithm timepattern`) take it too.
    let doc = dom::parse_str(&page, &Url::parse("https://blog.example.org/").unwrap()).unwrap();
    let context = DateContext::new(DateTime::parse_from_rfc3339("2024-06-01T12:00:00Z").unwrap());
    let paths: Vec<String> = html2rss::engines::timepattern::extract(&doc, TimePatternDb::builtin(), &context)
        .page
        .items()
        .filter_map(|i| i.link.as_ref().map(|l| l.path().to_string()))
        .collect();
    assert_eq!(paths, POSTS.iter().map(|p| p.1.to_string()).collect::<Vec<_>>());
}

/// Notion-built sites show each page's emoji icon in its own element right against the title
/// ("📄How I plan my week"): the icon is decoration, not the title's first word.
#[test]
fn an_icon_set_against_a_title_is_no_part_of_it() {
    let cards: String = POSTS
        .iter()
        .map(|(title, path, _)| {
            format!(
                r#"<a href="{path}" class="collection-card"><div class="cover"><img src="/c.jpg" alt="Page cover image"></div>
                <div class="content"><div class="property-title"><span class="icon">📄</span><span>{title}</span></div>
                <div class="property-select"><span class="pill">Notes</span></div></div></a>"#
            )
        })
        .collect();
    let page =
        format!("<html><body>{HEADER}<main><div class=\"collection\">{cards}</div></main>{FOOTER}</body></html>");
    assert_eq!(titles_and_paths(&page), posts_titles_and_paths());
}

/// Wire services list the latest stories by time of day under day headings. A heading whose
/// day the times below it take is their day, not a record of its own, however few stories a
/// day holds (two under the second heading here).
#[test]
fn day_headings_over_times_of_day_are_no_records_of_their_own() {
    let day = |heading: &str, stories: &[(&str, &str, &str)]| {
        let rows: String = stories
            .iter()
            .map(|(time, path, title)| {
                format!(r#"<li><span class="time">{time}</span> <a href="{path}">{title}</a></li>"#)
            })
            .collect();
        format!("<h2>{heading}</h2><ul>{rows}</ul>")
    };
    let page = format!(
        "<html><body>{HEADER}<main><h1>Latest</h1>{}{}</main>{FOOTER}</body></html>",
        day(
            "Saturday, June 1, 2024",
            &[
                ("11:52", "/w/gas", "EU ministers agree on gas storage targets"),
                ("11:31", "/w/nikkei", "Nikkei closes up on exporters"),
                ("10:58", "/w/rates", "Central bank holds its rate"),
                ("10:12", "/w/protest", "Opposition calls for a national protest"),
            ]
        ),
        day(
            "Friday, May 31, 2024",
            &[
                ("23:40", "/w/oil", "Oil steadies after output signal"),
                ("19:05", "/w/quake", "Strong earthquake hits off the coast")
            ]
        )
    );
    let found: Vec<(String, String)> = items(&page).into_iter().map(|(_, path, day)| (path, day)).collect();
    let want: Vec<(String, String)> = [
        ("/w/gas", "2024-06-01"),
        ("/w/nikkei", "2024-06-01"),
        ("/w/rates", "2024-06-01"),
        ("/w/protest", "2024-06-01"),
        ("/w/oil", "2024-05-31"),
        ("/w/quake", "2024-05-31"),
    ]
    .map(|(p, d)| (p.to_string(), d.to_string()))
    .to_vec();
    assert_eq!(found, want);
}

/// Forum thread lists lay each thread out as a row of cells: the starter's avatar, the thread
/// (title, starter, start date) and the latest post (its date and author). The cells are not
/// items: each thread is one, dated by its start, under its title.
#[test]
fn the_cells_of_a_forum_row_are_one_thread() {
    let rows: String = POSTS
        .iter()
        .enumerate()
        .map(|(i, (title, path, day))| {
            format!(
                r#"<div class="thread"><div class="thread-cell thread-cell--icon"><a href="/members/user{i}/"><img src="/a/{i}.jpg" alt="user{i}"></a></div>
                <div class="thread-cell thread-cell--main"><div class="title"><a href="{path}">{title}</a></div>
                <div class="minor"><a href="/members/user{i}/">user{i}</a> <a href="{path}"><time>{}</time></a></div></div>
                <div class="thread-cell thread-cell--meta">{} replies</div>
                <div class="thread-cell thread-cell--latest"><a href="{path}latest"><time>Yesterday at {}:15 PM</time></a><div><a href="/members/rider{i}/">rider{i}</a></div></div></div>"#,
                long_date(day),
                i * 3 + 1,
                i + 1
            )
        })
        .collect();
    let page = format!(
        "<html><body>{HEADER}<main><h1>Repair</h1><div class=\"threads\">{rows}</div></main>{FOOTER}</body></html>"
    );
    assert_eq!(items(&page), expected(&POSTS));
}

/// The same in a table (phpBB and many older boards): title and starter in one cell, the last
/// post's link, date and author in another. A separator glyph before a date (`» May 20, 2024`)
/// does not make it a worse date than the last post's plain one.
#[test]
fn the_cells_of_a_table_row_are_one_thread_dated_by_its_start() {
    let rows: String = POSTS
        .iter()
        .enumerate()
        .map(|(i, (title, path, day))| {
            format!(
                r#"<tr><td><a href="{path}?t={i}">{title}</a><br>by <a href="/memberlist.php?u={i}">user{i}</a> » {}</td>
                <td>{}</td><td><a href="{path}?t={i}&amp;view=last">May 31, 2024</a><br>by <a href="/memberlist.php?u=9{i}">rider{i}</a></td></tr>"#,
                long_date(day),
                i * 3 + 1
            )
        })
        .collect();
    let page = format!(
        "<html><body>{HEADER}<main><table class=\"topics\"><tr><th>Topic</th><th>Replies</th><th>Last post</th></tr>{rows}</table></main>{FOOTER}</body></html>"
    );
    assert_eq!(items(&page), expected(&POSTS));
}

/// Video grids show each video's length over its picture (`8:17`) and its age below ("2 days
/// ago"). A time of day with no day is the weaker date: beside dates that name the day, it is
/// a length, and the ages date the videos.
#[test]
fn a_video_s_length_is_no_time_of_day() {
    let videos = [
        ("Testing 10 cheap soldering irons", "/watch/a1", "8:17", "2 days ago", "2024-05-30"),
        ("Why this bridge design failed", "/watch/a2", "13:34", "4 days ago", "2024-05-28"),
        ("Restoring a 1970s radio", "/watch/a3", "18:51", "6 days ago", "2024-05-26"),
        ("The simplest 3D printer upgrade", "/watch/a4", "3:08", "1 week ago", "2024-05-25"),
    ];
    let cards: String = videos
        .iter()
        .map(|(title, path, length, age, _)| {
            format!(
                r#"<div class="item"><a href="{path}"><img src="/t.jpg" alt=""><span class="overlay">{length}</span></a>
                <h3><a href="{path}">{title}</a></h3><div class="meta"><span>120K views</span> <span>{age}</span></div></div>"#
            )
        })
        .collect();
    let page = format!(
        "<html><body>{HEADER}<main><h1>Videos</h1><div id=\"contents\">{cards}</div></main>{FOOTER}</body></html>"
    );
    assert_eq!(items(&page), expected(&videos.map(|(title, path, _, _, day)| (title, path, day))));
}

/// Calendars and ticket shops show coming events without their year ("Sun, Jun 9 • 6:00 PM").
/// Their dates run forward down the page, into the next year; a news list's run back and stay
/// in the past.
#[test]
fn year_less_dates_of_a_list_running_forward_are_coming() {
    let events = [
        ("Rust meetup: async in practice", "/e/rust-meetup", "Sun, Jun 9 • 6:00 PM", "2024-06-09"),
        ("Pitch night, summer edition", "/e/pitch-night", "Fri, Jul 19 • 7:30 PM", "2024-07-19"),
        ("Winter concert", "/e/winter-concert", "Sat, Dec 14 • 8:00 PM", "2024-12-14"),
        ("New year's run", "/e/new-year-run", "Thu, Jan 2 • 9:00 AM", "2025-01-02"),
    ];
    let cards = |list: &[(&str, &str, &str, &str)]| -> String {
        list.iter()
            .map(|(title, path, when, _)| {
                format!(r#"<li><div class="card"><a href="{path}"><h3>{title}</h3></a><p>{when}</p><p>The Hall</p></div></li>"#)
            })
            .collect()
    };
    let page = format!(
        "<html><body>{HEADER}<main><h1>Upcoming events</h1><ul>{}</ul></main>{FOOTER}</body></html>",
        cards(&events)
    );
    assert_eq!(items(&page), expected(&events.map(|(title, path, _, day)| (title, path, day))));
    let news = [
        ("Council passes the budget", "/n/budget", "May 30", "2024-05-30"),
        ("Bridge reopens", "/n/bridge", "May 12", "2024-05-12"),
        ("Library extends its hours", "/n/library", "Dec 20", "2023-12-20"),
    ];
    let page = format!("<html><body>{HEADER}<main><h1>News</h1><ul>{}</ul></main>{FOOTER}</body></html>", cards(&news));
    assert_eq!(items(&page), expected(&news.map(|(title, path, _, day)| (title, path, day))));
}

/// Job boards label each posting's age ("Posted Today", "Posted 3 days ago", "Just posted"):
/// the label says what the date is, and is no part of a date line's text that makes it prose.
/// Class "mixed ages, each a minority": a job board writes its newest rows "Today", then "N days
/// ago" and "3d" row by row, every age in a `<time datetime>`. No way of writing is most rows' own, but
/// every row has its machine-readable day.
#[test]
fn rows_dated_in_mixed_ways_keep_their_machine_readable_days() {
    let jobs = [
        ("iOS Engineer", "/remote-jobs/ios-engineer-1", "Today", "2024-06-01"),
        ("Data Engineer", "/remote-jobs/data-engineer-2", "Today", "2024-06-01"),
        ("Frontend Developer", "/remote-jobs/frontend-3", "1 days ago", "2024-05-31"),
        ("Product Designer", "/remote-jobs/designer-4", "1d", "2024-05-31"),
        ("Site Reliability Engineer", "/remote-jobs/sre-5", "2 days ago", "2024-05-30"),
        ("Support Lead", "/remote-jobs/support-6", "2d", "2024-05-30"),
        ("Backend Engineer", "/remote-jobs/backend-7", "3 days ago", "2024-05-29"),
        ("Technical Writer", "/remote-jobs/writer-8", "3d", "2024-05-29"),
        ("QA Engineer", "/remote-jobs/qa-9", "4 days ago", "2024-05-28"),
        ("Security Engineer", "/remote-jobs/security-10", "4d", "2024-05-28"),
    ];
    let rows: String = jobs
        .iter()
        .map(|(title, path, age, day)| {
            format!(
                r#"<tr class="job"><td class="position"><a href="{path}"><h2>{title}</h2></a><a href="/company/hooli"><h3>Hooli</h3></a>
                <div class="location">Remote · Worldwide</div></td><td class="time"><time datetime="{day}T09:00:00+00:00">{age}</time></td>
                <td><a class="button" href="{path}/apply">Apply</a></td></tr>"#
            )
        })
        .collect();
    let page = format!(
        "<html><body>{HEADER}<main><h1>Remote jobs</h1><table><tbody>{rows}</tbody></table></main>{FOOTER}</body></html>"
    );
    assert_eq!(items(&page), expected(&jobs.map(|(title, path, _, day)| (title, path, day))));
}

#[test]
fn a_posted_label_before_a_relative_day_keeps_the_day() {
    let jobs = [
        ("Data Engineer", "/jobs/data-engineer", "Just posted", "2024-06-01"),
        ("Site Reliability Engineer", "/jobs/sre", "Posted Today", "2024-06-01"),
        ("Frontend Developer", "/jobs/frontend", "Posted 1 day ago", "2024-05-31"),
        ("Product Designer", "/jobs/designer", "Posted 3 days ago", "2024-05-29"),
    ];
    let rows: String = jobs
        .iter()
        .map(|(title, path, age, _)| {
            format!(
                r#"<li class="job"><h2><a href="{path}">{title}</a></h2><div class="company">Umbrella Health · Remote</div>
                <div class="meta"><span class="date">{age}</span></div></li>"#
            )
        })
        .collect();
    let page =
        format!("<html><body>{HEADER}<main><h1>Jobs</h1><ul class=\"jobs\">{rows}</ul></main>{FOOTER}</body></html>");
    assert_eq!(items(&page), expected(&jobs.map(|(title, path, _, day)| (title, path, day))));
}

/// Tistory and other platforms number their posts (`/98`, `/2024/98`): an address of digits
/// alone is a post unless it reads as a date archive (`/2024/`, `/2024/05/`), which links by
/// year and month go to.
#[test]
fn posts_at_numbered_addresses_are_items_and_date_archives_are_not() {
    let numbered: Vec<(&str, String)> =
        POSTS.iter().enumerate().map(|(i, &(title, _, _))| (title, format!("/{}", 98 - 3 * i))).collect();
    let yearly: Vec<(&str, String)> =
        POSTS.iter().enumerate().map(|(i, &(title, _, _))| (title, format!("/2024/{}", 98 - 3 * i))).collect();
    for posts in [numbered, yearly] {
        let list: String =
            posts.iter().map(|(title, path)| format!(r#"<li><a href="{path}">{title}</a></li>"#)).collect();
        let page = format!(
            r#"<html><body>{HEADER}<main><ul class="post-list">{list}</ul></main>
            <aside><h3>Archives</h3><ul><li><a href="/2024/05/">May 2024</a></li><li><a href="/2024/04/">April 2024</a></li>
            <li><a href="/2023/">2023</a></li></ul></aside>{FOOTER}</body></html>"#
        );
        let want: Vec<(String, String, String)> =
            posts.iter().map(|(t, p)| (t.to_string(), p.clone(), String::new())).collect();
        assert_eq!(items(&page), want);
    }
}

/// A hand-written homepage: one column of paragraphs, each a link, under headings ("Writing",
/// "Talks"), after a bio whose sentences link the author's employer and profiles. The posts are
/// the section that links the site's own pages; the talks on video sites and the bio's links
/// are sections of the same kind of record that only link elsewhere.
#[test]
fn headed_sections_of_one_column_that_only_link_elsewhere_are_not_the_posts() {
    let posts = [
        ("Learning in public", "/writing/learning-in-public/"),
        ("A year without social media", "/writing/no-social/"),
        ("Reading slowly", "/writing/reading-slowly/"),
        ("Why I write by hand", "/writing/by-hand/"),
        ("The garden and the stream", "/writing/garden-stream/"),
        ("Good enough is good", "/writing/good-enough/"),
        ("Walking as thinking", "/writing/walking/"),
    ];
    let writing: String = posts.iter().map(|(title, path)| format!(r#"<p><a href="{path}">{title}</a></p>"#)).collect();
    let page = format!(
        r#"<html><body><main><h1>Jonas Lind</h1>
        <p>I'm a designer living in Malmö. I work at <a href="https://studio.example.net">a small studio</a> and teach
        at <a href="https://school.example.edu">the school of design</a>. Previously at <a href="https://bigco.example.com">BigCo</a>.</p>
        <p>You can find me on <a href="https://are.na/jonas-lind">Are.na</a> and <a href="https://github.com/jlind">GitHub</a>,
        or write to <a href="mailto:jonas@example.org">jonas@example.org</a>.</p>
        <h2>Writing</h2>{writing}
        <h2>Talks</h2><p><a href="https://www.youtube.com/watch?v=abc123">Designing for slowness</a> (2023)</p>
        <p><a href="https://vimeo.com/123456">Typography at small sizes</a> (2021)</p></main></body></html>"#
    );
    let want: Vec<(&str, &str, &str)> = posts.iter().map(|&(t, p)| (t, p, "")).collect();
    assert_eq!(items(&page), expected(&want));
}

/// Class "pager-named wrapper": a page builder's blog module shows its posts in a grid of
/// columns inside a wrapper named for the script that pages it (Divi's
/// `et_pb_ajax_pagination_container`), between builder sections of their own (a hero with a
/// call to action). The wrapper of a list of titles is no pager: the posts are the items, not
/// the sections.
#[test]
fn a_grid_in_a_wrapper_named_for_paging_is_the_list() {
    let card = |(title, path, _): &Post| {
        format!(
            r#"<article class="blog-post"><h2><a href="{path}">{title}</a></h2>
            <div class="post-content"><p>What happened, in a sentence or two.</p></div></article>"#
        )
    };
    let columns: String = POSTS
        .chunks(2)
        .map(|column| format!(r#"<div class="column">{}</div>"#, column.iter().map(card).collect::<String>()))
        .collect();
    let page = format!(
        r#"<html><body>{HEADER}<div class="builder">
        <div class="builder-section"><div class="text-module"><h1>We build software that lasts</h1>
        <p>A small studio for web applications, run by engineers who answer their own phone, since 2012. We plan,
        design, build and look after the software our clients run their business on, and we stay for the years
        after the launch.</p>
        <a class="button" href="/contact/">Work with us and tell us what you need</a></div></div>
        <div class="builder-section"><div class="blog-module"><div class="ajax-pagination-container">{columns}
        <div class="nav-links"><a href="/page/2/">« Older Entries</a></div></div></div></div>
        </div>{FOOTER}</body></html>"#
    );
    let found: Vec<String> = items(&page).into_iter().map(|(_, path, _)| path).collect();
    let posts: Vec<String> = POSTS.iter().map(|(_, path, _)| path.to_string()).collect();
    assert_eq!(found, posts);
}

/// Class "featured above recent": a homepage shows a few featured cards, then its "Recent posts"
/// in the main content. A "recent" list in a sidebar repeats the page's list; in `<main>` it is
/// the page's stream, and the featured cards above it lead it.
#[test]
fn recent_posts_in_the_main_content_are_the_stream_under_its_featured_cards() {
    let featured: String = POSTS[3..]
        .iter()
        .map(|(title, path, _)| {
            format!(
                r#"<div class="feature"><a href="{path}"><img src="{path}cover.jpg" alt="{title}"></a>
                <h3><a href="{path}">{title}</a></h3></div>"#
            )
        })
        .collect();
    let recent: String =
        POSTS[..3].iter().map(|(title, path, _)| format!(r#"<li><a href="{path}">{title}</a></li>"#)).collect();
    let page = format!(
        r#"<html><body>{HEADER}<main><section class="featured"><h2>Featured</h2>{featured}</section>
        <section class="recent-posts"><h2>Recent posts</h2><ul>{recent}</ul></section></main>{FOOTER}</body></html>"#
    );
    let posts: Vec<(&str, &str, &str)> = POSTS[3..].iter().chain(&POSTS[..3]).map(|&(t, p, _)| (t, p, "")).collect();
    assert_eq!(items(&page), expected(&posts));
}

/// Class "a length read as a time of day": a video grid or a podcast's episodes show each item's
/// length ("12:31", "1:02:33") beside its title, named as such by a class, by schema.org's
/// `itemprop="duration"` or by a `<time datetime="PT…">` duration. A length is no moment: the
/// items are undated, not dated today at half past twelve.
#[test]
fn an_item_s_length_is_no_time_of_day() {
    let lengths = [
        r#"<span class="duration">12:31</span>"#,
        r#"<span itemprop="duration">12:32</span>"#,
        r#"<time datetime="PT12M33S">12:33</time>"#,
    ];
    for length in lengths {
        let videos: String = POSTS
            .iter()
            .map(|(title, path, _)| {
                format!(
                    r#"<div class="video"><a class="thumb" href="{path}"><img src="{path}t.jpg" alt="">{length}</a>
                    <a class="title" href="{path}">{title}</a></div>"#
                )
            })
            .collect();
        let page =
            format!(r#"<html><body>{HEADER}<main><div class="grid">{videos}</div></main>{FOOTER}</body></html>"#);
        let posts: Vec<(&str, &str, &str)> = POSTS.iter().map(|&(t, p, _)| (t, p, "")).collect();
        assert_eq!(items(&page), expected(&posts), "{length}");
    }
}

/// Class "a month archive beside the posts": a blog's sidebar lists its months with their post
/// counts, each month a link to its archive (`/archives/2024/05/`, as Hexo writes it; `/2024/05/`
/// as WordPress does). Where nothing names the sidebar (a `<div>` among `<div>`s, classes
/// hashed by a build tool) and the posts show no dates, the months are still no posts: a link
/// to a date's archive is no item's headline.
#[test]
fn a_month_archive_beside_undated_posts_is_no_list() {
    const MONTHS: [&str; 8] = [
        "June 2024",
        "May 2024",
        "April 2024",
        "March 2024",
        "February 2024",
        "January 2024",
        "December 2023",
        "November 2023",
    ];
    let posts: String = POSTS
        .iter()
        .map(|(title, path, _)| {
            format!(
                r#"<div><h2><a href="{path}">{title}</a></h2><p>What the post says, in a sentence or two.</p></div>"#
            )
        })
        .collect();
    for prefix in ["/archives", ""] {
        let months: String = MONTHS
            .iter()
            .enumerate()
            .map(|(k, month)| {
                let date = chrono::NaiveDate::parse_from_str(&format!("1 {month}"), "%d %B %Y").unwrap();
                let path = format!("{prefix}/{}/", date.format("%Y/%m"));
                format!(r#"<li><a href="{path}"><span>{month}</span><span>{}</span></a></li>"#, k % 3 + 1)
            })
            .collect();
        let page = format!(
            r#"<html><body>{HEADER}<div><div>{posts}</div><div><h3>Archives</h3><ul>{months}</ul></div></div>{FOOTER}</body></html>"#
        );
        let undated: Vec<_> = POSTS.iter().map(|&(t, p, _)| (t, p, "")).collect();
        assert_eq!(items(&page), expected(&undated), "months at {prefix}/YYYY/MM/");
    }
}
