//! Article pages: main content and dates on real corpus pages (a fixed sample of each set, so
//! the thresholds hold in CI in a few seconds; `html2rss eval` scores every page), and the
//! extractor's behaviour on pages built for one property each.

mod common;

use chrono::NaiveDate;
use html2rss::dom::{Document, parse_str};
use html2rss::engines::article::{self, DateSource, Hints};
use html2rss::eval::{articles, corpus, dates};
use url::Url;

/// Every `n`-th item, so that the sample spreads over the whole (sorted) set.
fn sample<T: Clone>(items: &[T], n: usize) -> Vec<T> {
    items.iter().step_by(n).cloned().collect()
}

#[test]
fn zyte_main_text_keeps_its_token_f1() {
    let pages = common::article_set("zyte");
    assert_eq!(pages.len(), 181);
    let report = articles::evaluate_pages(&sample(&pages, 6)).unwrap();
    assert!(report.f1() >= 0.93, "token F1 {:.3} on {} pages\n{report}", report.f1(), report.pages.len());
    assert!(report.precision() >= 0.9 && report.recall() >= 0.95, "{report}");
    assert_eq!(report.empty(), 0, "{report}");
}

#[test]
fn htmldate_page_dates_keep_their_exact_day_accuracy() {
    let pages = corpus::date_pages(&common::corpus_dir()).unwrap();
    assert_eq!(pages.len(), 200);
    let report = dates::evaluate_pages(&sample(&pages, 4)).unwrap();
    let with_url = &report.with_url;
    assert!(with_url.accuracy() >= 0.92, "exact day {:.3}\n{report}", with_url.accuracy());
    // Without the URL the page itself must still date nearly all of them.
    assert!(report.without_url.accuracy() >= 0.90, "{report}");
    assert!(with_url.precision() >= 0.93, "{report}");
}

fn page(url: &str, html: &str) -> Document {
    parse_str(html, &Url::parse(url).unwrap()).unwrap()
}

fn day(date: Option<chrono::DateTime<chrono::FixedOffset>>) -> Option<NaiveDate> {
    date.map(|d| d.date_naive())
}

fn ymd(y: i32, m: u32, d: u32) -> Option<NaiveDate> {
    NaiveDate::from_ymd_opt(y, m, d)
}

/// Paragraphs of prose long enough for Readability to take them for an article.
fn prose(topic: &str, paragraphs: usize) -> String {
    (1..=paragraphs)
        .map(|i| {
            format!(
                "<p>Paragraph {i} about {topic}: the council met on a rainy evening, heard the residents, \
                 weighed the costs of the new bridge against the old ferry, and agreed, after a long \
                 debate, to publish every document of the tender before the vote in spring.</p>"
            )
        })
        .collect()
}

#[test]
fn comment_dates_are_not_the_publication_date() {
    let html = format!(
        r#"<html><head><title>Bridge vote delayed | Town News</title></head><body>
        <article><h1>Bridge vote delayed</h1><p class="byline">By Ann Lee</p><p>June 7, 2020</p>{}</article>
        <section id="comments"><h2>3 comments</h2>
          <div class="comment"><time datetime="2020-06-09T10:00:00Z">June 9, 2020</time><p>Great!</p></div>
          <div class="comment"><time datetime="2020-06-10T10:00:00Z">June 10, 2020</time><p>No.</p></div>
        </section></body></html>"#,
        prose("the bridge", 6)
    );
    let doc = page("https://town.example/news/bridge-vote", &html);
    let art = article::extract(&doc, &Hints::default());
    assert_eq!(day(art.published), ymd(2020, 6, 7));
    assert_eq!(art.published_source, Some(DateSource::Text));
    // Only comments give dates: there is no publication date.
    let html = format!(
        r#"<html><body><article><h1>Bridge vote delayed</h1>{}</article>
        <ol class="comment-list"><li><time datetime="2020-06-09">June 9, 2020</time> Great!</li></ol></body></html>"#,
        prose("the bridge", 4)
    );
    let doc = page("https://town.example/news/bridge-vote", &html);
    assert_eq!(article::extract(&doc, &Hints::default()).published, None);
}

#[test]
fn meta_tags_win_over_json_ld_time_elements_and_the_url() {
    let head = r#"<meta property="article:published_time" content="2020-06-07T09:00:00+02:00">
        <meta property="article:modified_time" content="2020-06-08T10:00:00+02:00">
        <script type="application/ld+json">{"@type":"NewsArticle","datePublished":"2020-06-05"}</script>"#;
    let body = r#"<h1>Bridge</h1><time datetime="2020-06-04">June 4</time>"#;
    let url = "https://town.example/2020/06/03/bridge";
    let full = page(url, &format!("<html><head>{head}</head><body>{body}</body></html>"));
    let art = article::extract(&full, &Hints::default());
    assert_eq!((day(art.published), art.published_source), (ymd(2020, 6, 7), Some(DateSource::Meta)));
    assert_eq!(day(art.modified), ymd(2020, 6, 8));
    // Then JSON-LD, then the time element, then the URL (when allowed).
    let ld_only = head.split("</script>").next().unwrap().split("<script").nth(1).unwrap();
    let doc = page(url, &format!("<html><head><script{ld_only}</script></head><body>{body}</body></html>"));
    assert_eq!(day(article::extract(&doc, &Hints::default()).published), ymd(2020, 6, 5));
    let doc = page(url, &format!("<html><body>{body}</body></html>"));
    assert_eq!(day(article::extract(&doc, &Hints::default()).published), ymd(2020, 6, 4));
    let doc = page(url, "<html><body><h1>Bridge</h1><p>Text.</p></body></html>");
    let with_url = article::extract(&doc, &Hints::default());
    assert_eq!((day(with_url.published), with_url.published_source), (ymd(2020, 6, 3), Some(DateSource::Url)));
    let without_url = article::extract(&doc, &Hints { url_dates: false, ..Hints::default() });
    assert_eq!(without_url.published, None);
}

#[test]
fn a_utc_timestamp_takes_the_day_the_page_shows() {
    // 02:54 UTC on May 2 is the evening of May 1 where the page was written.
    let html = format!(
        r#"<html><head><meta property="article:published_time" content="2020-05-02T02:54:29.000Z"></head>
        <body><h1>Station closes overnight</h1><p class="date">Friday, May 1, 2020</p>{}</body></html>"#,
        prose("the station", 3)
    );
    let doc = page("https://tv.example/traffic/station/6144149/", &html);
    let published = article::extract(&doc, &Hints::default()).published.unwrap();
    assert_eq!(published.date_naive(), ymd(2020, 5, 1).unwrap());
    // The day is the page's; the instant is the timestamp's, not midnight of the shown day.
    assert_eq!(published, chrono::DateTime::parse_from_rfc3339("2020-05-02T02:54:29Z").unwrap(), "{published}");
}

#[test]
fn a_time_without_a_zone_is_on_the_site_s_clock() {
    // The meta tag writes the site's own clock with no zone; the visible line says the zone
    // (WIB, UTC+7). An evening story stays on its day: 20:15 at UTC+7, not 20:15 UTC.
    let html = format!(
        r#"<html><head><meta name="publishdate" content="2024/03/05 20:15:22"></head>
        <body><h1>Kereta cepat tambah jadwal</h1><div class="detail__date">Selasa, 05 Mar 2024 20:15 WIB</div>{}</body></html>"#,
        prose("the railway", 3)
    );
    let doc = page("https://news.example/berita/d-7230000/kereta-cepat", &html);
    let published = article::extract(&doc, &Hints::default()).published.unwrap();
    assert_eq!(published, chrono::DateTime::parse_from_rfc3339("2024-03-05T20:15:22+07:00").unwrap(), "{published}");
}

#[test]
fn content_leaves_out_comments_share_bars_related_posts_newsletters_and_author_boxes() {
    let html = format!(
        r#"<html><head><title>Bridge vote delayed</title></head><body>
        <nav><a href="/">Home</a><a href="/news">News</a></nav>
        <div class="post">
          <h1>Bridge vote delayed</h1>
          <div class="share-bar"><a href="https://twitter.example/share">Share on Twitter</a></div>
          <div class="entry-content">{}</div>
          <div class="author-box"><img src="/a.jpg"><p>Ann Lee writes about the town for twenty years and more.</p></div>
          <div class="newsletter-signup"><p>Get our newsletter every morning in your inbox, for free.</p></div>
          <div class="related-posts"><h3>Related</h3><p>Ferry timetable changes again this summer.</p></div>
          <p class="postmetadata alt"><small>This entry was filed under <a href="/news/">News</a>. You can follow any
          responses to this entry through the <a href="/feed/">RSS 2.0</a> feed.</small></p>
        </div>
        <div id="comments"><p>I think the bridge is a waste of money and the ferry is just fine.</p></div>
        <footer><p>Copyright Town News</p></footer></body></html>"#,
        prose("the bridge", 5)
    );
    let doc = page("https://town.example/news/bridge-vote", &html);
    let text = article::extract(&doc, &Hints::default()).content_text.unwrap();
    for n in 1..=5 {
        assert!(text.contains(&format!("Paragraph {n} about the bridge")), "{text}");
    }
    for boilerplate in [
        "Share on",
        "twenty years",
        "newsletter",
        "Ferry timetable",
        "waste of money",
        "Copyright",
        "Home",
        "responses",
    ] {
        assert!(!text.contains(boilerplate), "{boilerplate:?} in {text}");
    }
    assert!(!text.contains("Bridge vote delayed"), "the headline is not the body: {text}");
    assert!(text.contains("\n\nParagraph 2"), "paragraphs are separated by blank lines: {text}");
}

#[test]
fn answers_of_a_q_and_a_page_are_posts_not_modules_of_one_text() {
    // Answers share their classes like a page builder's modules of one text, but each is a
    // post of its own (a schema.org item with its author and time): only the best is text.
    let answer = |n: usize, accepted: bool, said: &str| {
        let class = if accepted { "answer js-answer accepted-answer" } else { "answer js-answer" };
        let prop = if accepted { "acceptedAnswer" } else { "suggestedAnswer" };
        format!(
            r#"<div id="answer-{n}" class="{class}" itemprop="{prop}" itemscope itemtype="https://schema.org/Answer">
            <div class="post-layout"><div class="votecell">{n}</div><div class="answercell"><div class="s-prose js-post-body" itemprop="text">{said}</div>
            <div class="user-info">answered <time datetime="2024-03-0{n}T09:02:00Z">Mar {n}</time> <a href="/users/{n}">user{n}</a></div></div></div></div>"#
        )
    };
    let html = format!(
        r#"<html><body><div id="mainbar" role="main"><h1>Why does the sync not remove files?</h1>
        <div class="question"><div class="s-prose js-post-body"><p>I run a nightly backup and removed files stay on the destination. Why?</p></div></div>
        <div id="answers">{}{}{}</div></div></body></html>"#,
        answer(5, true, &prose("the sync", 4)),
        answer(
            6,
            false,
            "<p>Also note that deleting is silently disabled for the whole run when the sender hits an I/O error: check the log for it before anything else, since it happens often on failing disks.</p>"
        ),
        answer(
            7,
            false,
            "<p>Another way is a second run with the list of files of the source, which removes what is not on it: slower, but it says what it removes and never touches anything else.</p>"
        ),
    );
    let doc = page("https://unix.example/questions/771204/why-does-the-sync-not-remove-files", &html);
    let text = article::extract(&doc, &Hints::default()).content_text.unwrap();
    assert!(text.contains("Paragraph 4 about the sync"), "{text}");
    assert!(!text.contains("silently disabled") && !text.contains("second run"), "{text}");
}

#[test]
fn captions_and_comment_sections_named_in_other_languages_are_no_text() {
    // A regional paper's column: the photo's caption beside the body (`legende`, `legenda`,
    // `didascalia`…) and the readers' section after it (`reactions`, `comentarios`…).
    for (caption, comments) in [("legende", "reactions"), ("legenda", "comentarios"), ("didascalia", "kommentare")] {
        let html = format!(
            r#"<html><body><div id="colonne"><h1>Le tramway prend six mois de retard</h1>
            <div class="article-visuel"><img src="/p.jpg"><p class="{caption}">Le chantier du tramway, près du Palais de justice, le 4 mars.</p></div>
            <div class="texte">{}</div>
            <div id="{comments}"><h3>Réactions (2)</h3><div class="item"><p class="auteur">Ramier31</p>
            <p>Six mois, on en reparlera en décembre. Avec ce chantier, on sait quand ça commence mais jamais quand ça finit.</p></div></div>
            </div></body></html>"#,
            prose("the tramway", 4)
        );
        let doc = page("https://journal.example/toulouse/tramway-retard", &html);
        let text = article::extract(&doc, &Hints::default()).content_text.unwrap();
        assert!(text.contains("Paragraph 4 about the tramway"), "{caption}: {text}");
        assert!(!text.contains("Palais de justice"), "{caption}: {text}");
        assert!(!text.contains("Six mois"), "{comments}: {text}");
    }
}

#[test]
fn replies_marked_as_comments_by_microdata_are_no_text() {
    // A forum topic as its crawler view serves it: the first post, then replies of the same
    // classes that only schema.org microdata tells apart as comments.
    let reply = |n: usize, said: &str| {
        format!(
            r#"<div id="post_{n}" itemprop="comment" itemscope itemtype="http://schema.org/Comment" class="topic-body crawler-post">
            <div class="crawler-post-meta"><span itemprop="author"><a href="/u/someone{n}">someone{n}</a></span></div>
            <div class="post" itemprop="text"><p>{said}</p></div></div>"#
        )
    };
    let html = format!(
        r#"<html><body><div id="main-outlet" role="main"><h1>Dongle drops after a kernel update</h1>
        <div itemscope itemtype="http://schema.org/DiscussionForumPosting"><div id="post_1" class="topic-body crawler-post">
        <div class="post" itemprop="text">{}</div></div>{}{}</div></div></body></html>"#,
        prose("the dongle", 2),
        reply(2, "The chip uses a serial driver with a known regression in early releases. Which version are you on?"),
        reply(3, "Confirmed, the next release fixes it. No drops for two days now, marking this as solved."),
    );
    let doc = page("https://forum.example/t/dongle-drops/153221", &html);
    let text = article::extract(&doc, &Hints::default()).content_text.unwrap();
    assert!(text.contains("Paragraph 1 about the dongle") && text.contains("Paragraph 2 about the dongle"), "{text}");
    assert!(!text.contains("regression") && !text.contains("Confirmed"), "{text}");

    // XenForo marks every post a `Comment`, the topic's first one too: that one is the text.
    let post = |n: usize, said: &str| {
        format!(
            r#"<article class="message message--post js-post" id="js-post-{n}" itemscope itemtype="https://schema.org/Comment">
            <div class="message-cell message-cell--user"><a href="/members/someone.{n}/">someone{n}</a></div>
            <div class="message-cell message-cell--main"><div itemprop="text"><div class="bbWrapper">{said}</div></div></div></article>"#
        )
    };
    let html = format!(
        r#"<html><body><div class="p-body-main"><h1 class="p-title-value">Dongle drops after a kernel update</h1>
        <div class="block-body js-replyNewMessageContainer">{}{}{}</div></div></body></html>"#,
        post(1, &prose("the dongle", 2)),
        post(2, "The chip uses a serial driver with a known regression in early releases. Which version are you on?"),
        post(3, "Confirmed, the next release fixes it. No drops for two days now, marking this as solved."),
    );
    let doc = page("https://forum.example/threads/dongle-drops.153221/", &html);
    let text = article::extract(&doc, &Hints::default()).content_text.unwrap();
    assert!(text.contains("Paragraph 1 about the dongle") && text.contains("Paragraph 2 about the dongle"), "{text}");
    assert!(!text.contains("regression") && !text.contains("Confirmed"), "{text}");
}
#[test]
fn content_html_has_absolute_links_repaired_lazy_images_and_no_scripts() {
    let html = format!(
        r#"<html><head><base href="/blog/"></head><body><article><h1>Lazy pictures</h1>{}
        <p>See <a href="../about">about us</a> and <a href="notes">the notes</a>.</p>
        <figure><img src="data:image/gif;base64,R0lGOD" data-src="img/lazy.jpg" alt="lazy"></figure>
        <p><img data-srcset="/s.jpg 300w, /l.jpg 1200w" alt="set"></p>
        <p onclick="steal()">Clicks <script>steal()</script>go nowhere.</p>{}</article></body></html>"#,
        prose("pictures", 3),
        prose("more pictures", 2)
    );
    let doc = page("https://photo.example/blog/2020/06/lazy", &html);
    let content = article::extract(&doc, &Hints::default()).content_html.unwrap();
    assert!(content.contains(r#"href="https://photo.example/about""#), "{content}");
    assert!(content.contains(r#"href="https://photo.example/blog/notes""#), "{content}");
    assert!(content.contains(r#"src="https://photo.example/blog/img/lazy.jpg""#), "{content}");
    assert!(content.contains(r#"src="https://photo.example/l.jpg""#), "{content}");
    assert!(
        !content.contains("script") && !content.contains("onclick") && !content.contains("data:image"),
        "{content}"
    );
}

#[test]
fn a_feed_description_picks_its_article_among_several() {
    // Two posts on one page: Readability joins them into one article. The feed item's
    // description quotes the second (the data-objects paper's case of consecutive articles).
    let second = "<p>The library will open on Sundays from September, the mayor announced after the \
                  budget review, and volunteers will run a reading club for children every week.</p>\
                  <p>Opening hours on weekdays stay the same; the reading room gets new lamps and \
                  chairs, paid for by a donation from the local bookshop.</p>";
    let html = format!(
        r#"<html><body><div class="posts"><div class="post"><h2>Bridge vote delayed</h2>{}</div>
        <div class="post"><h2>Library opens on Sundays</h2>{second}</div></div></body></html>"#,
        prose("the bridge", 8)
    );
    let doc = page("https://town.example/", &html);
    let generic = article::extract(&doc, &Hints::default()).content_text.unwrap();
    assert!(generic.contains("about the bridge") && generic.contains("reading club"), "{generic}");
    let hints = Hints {
        title: Some("Library opens on Sundays".into()),
        description: Some("<p>The library will open on Sundays from September, the mayor announced…</p>".into()),
        ..Hints::default()
    };
    let hinted = article::extract(&doc, &hints).content_text.unwrap();
    assert!(hinted.contains("reading club for children"), "{hinted}");
    assert!(!hinted.contains("about the bridge"), "{hinted}");
}

/// Class "cited link lists": newsletters, roundups and reading notes list other sites' pages in
/// the middle of their text, each entry nothing but a link. They are the text; a "read more"
/// line to the site's own story, a bare address, and a box of other sites' stories after the
/// text are not.
#[test]
fn a_list_of_other_sites_inside_the_text_is_text_and_links_around_it_are_not() {
    let html = format!(
        r#"<html><head><title>This week in compilers 16</title></head><body>
        <nav><a href="/">Home</a><a href="/archive/">Archive</a></nav>
        <article><h1>This week in compilers 16</h1>{}
        <h2>From the community</h2>
        <ul><li><a href="https://blog.example.net/wasi/">Standardizing a system interface for sandboxes</a></li>
        <li><a href="https://hacks.example.com/lucet">A native compiler and runtime opens its sources</a></li></ul>
        <p><a href="/2019/03/this-week-15/">Read last week's issue on this site</a></p>
        <p><a href="https://archive.example.org/web/2019/x">https://archive.example.org/web/2019/x</a></p>
        {}
        <ul><li><a href="https://partner.example.com/a">Ten things to know about sandboxes today</a></li>
        <li><a href="https://partner.example.com/b">Why everyone is moving to new runtimes</a></li></ul>
        </article></body></html>"#,
        prose("the compiler", 2),
        prose("the release", 2)
    );
    let doc = page("https://news.compilers.example/2019/04/this-week-16/", &html);
    let text = article::extract(&doc, &Hints::default()).content_text.unwrap();
    assert!(text.contains("Paragraph 2 about the release"), "{text}");
    for cited in ["Standardizing a system interface", "A native compiler and runtime"] {
        assert!(text.contains(cited), "{cited:?} missing from {text}");
    }
    for away in ["last week's issue", "archive.example.org", "Ten things to know", "moving to new runtimes"] {
        assert!(!text.contains(away), "{away:?} in {text}");
    }
}

/// Class "license notice": blogs end every post with a box naming its author, its permalink
/// and the license it is published under (a Creative Commons link, `rel="license"`). It is the
/// same on every post, not the text; a paragraph of the text that links a license stays.
#[test]
fn a_license_notice_under_the_post_is_no_article_text() {
    let html = format!(
        r#"<html><head><title>Notes on constraint solving</title></head><body><article>
        <h1>Notes on constraint solving</h1>{}
        <p>The solver's own code is free software: the authors publish it under the
        <a href="https://www.gnu.org/licenses/gpl-3.0.html">GPL</a>, and every paragraph of its
        manual may be copied as long as the copy names them, which is what this post does.</p>
        <div style="border:1px solid"><h3>About this post</h3><ul>
        <li>Author: <a href="/about/">Lin</a></li>
        <li>Link: <a href="/2019/06/25/constraints/">https://blog.example.org/2019/06/25/constraints/</a></li>
        <li>Licensed under <a href="https://creativecommons.org/licenses/by-nc-nd/4.0/">CC BY-NC-ND 4.0</a></li>
        </ul></div></article></body></html>"#,
        prose("the solver", 3)
    );
    let doc = page("https://blog.example.org/2019/06/25/constraints/", &html);
    let text = article::extract(&doc, &Hints::default()).content_text.unwrap();
    assert!(text.contains("Paragraph 3 about the solver") && text.contains("under the GPL"), "{text}");
    for notice in ["About this post", "Author:", "CC BY-NC-ND"] {
        assert!(!text.contains(notice), "{notice:?} in {text}");
    }
}

/// Class "a taxonomy line": a post's tags and categories go (links with `rel="tag"` or
/// `rel="category"`), and so does the line that held them ("Filed under , | 1 Comment", "This
/// entry was posted in , . Bookmark the permalink."), which was left as labels and commas. A
/// sentence of the text that links a tag is text.
#[test]
fn the_line_that_files_a_post_under_its_tags_goes_with_them() {
    let html = format!(
        r#"<html><head><title>A week in the Alps</title></head><body><div class="post">
        <h2>A week in the Alps</h2>
        <p class="postmetadata">Filed under <a href="/category/travel/" rel="category tag">Travel</a>,
        <a href="/tag/alps/" rel="tag">Alps</a> | <a href="/alps/#comments">1 Comment</a></p>
        {}
        <p>Last year I wrote about <a href="/tag/hiking/" rel="tag">hiking</a> in the Dolomites, and
        this trip went higher, over passes that stay white until the middle of July.</p>
        <div class="entry-utility">This entry was posted in <a href="/category/travel/" rel="category">Travel</a>.
        Bookmark the <a href="/alps/" rel="bookmark">permalink</a>.</div>
        </div></body></html>"#,
        prose("the hike", 3)
    );
    let doc = page("https://blog.example.org/alps/", &html);
    let text = article::extract(&doc, &Hints::default()).content_text.unwrap();
    assert!(text.contains("Paragraph 3 about the hike") && text.contains("wrote about hiking in the"), "{text}");
    for label in ["Filed under", "1 Comment", "This entry was posted", "Bookmark the"] {
        assert!(!text.contains(label), "{label:?} in {text}");
    }
}

/// Class "a column of teasers outweighs a short story": a news site's column of other stories'
/// cards after the story (a title, a date, a thumbnail and a one-sentence teaser each, under
/// a `<div>` that titles the box) says more than the whole page's share a box may hold, but
/// less than the story; it is no text. A shop's products that say more than the page's intro
/// are the page's own list and stay.
#[test]
fn a_column_of_teaser_cards_after_a_short_story_is_no_text() {
    // The story's text with a column of twelve cards after it, each classed as `card_class`
    // says and the column titled by a `<div>` of its own.
    let text_beside_column = |column_title: &str, card_class: &dyn Fn(usize) -> String| {
        let cards: String = (1..=12)
            .map(|i| {
                format!(
                    r#"<div class="{}"><div class="box-inner"><div><a href="/2012/11/07/story-{i}/">Other headline {i}</a></div>
                    <div class="when">updated 11:04 AM EST, Wed November 7, 2012</div>
                    <div class="thumb"><a href="/2012/11/07/story-{i}/"><img src="/t{i}.jpg" alt=""></a></div>
                    <div class="teaser">Another story of the day number {i}, in one sentence.</div></div></div>"#,
                    card_class(i)
                )
            })
            .collect();
        let html = format!(
            r#"<html><head><title>Quake hits the coast</title></head><body><div id="page">
            <div class="story"><h1>Quake hits the coast</h1>{}</div>
            <div class="column"><div class="column-title">{column_title}</div>{cards}</div>
            </div></body></html>"#,
            prose("the quake", 5)
        );
        let doc = page("https://news.example.com/2012/11/07/quake/", &html);
        article::extract(&doc, &Hints::default()).content_text.unwrap()
    };
    let text = text_beside_column("Part of complete coverage on", &|_| "box".to_string());
    assert!(text.contains("Paragraph 5 about the quake"), "{text}");
    assert!(!text.contains("Another story of the day"), "{text}");

    // Cards classed after their posts, as WordPress writes them (`post-101 post type-post`):
    // no two alike by class, alike by tag.
    let text = text_beside_column("More stories", &|i| format!("post-{} post type-post", 100 + i));
    assert!(text.contains("Paragraph 5 about the quake"), "{text}");
    assert!(!text.contains("Another story of the day"), "{text}");
}

/// Class "site notice beside the post": old themes end the page's column with a credit line
/// (`<div class="credit">(c) 2012 … powered by WordPress</div>`) after the sidebar, not in a
/// `<footer>`; on a short post it was taken for the text. An agency's copyright line right
/// after its story is the story's and stays.
#[test]
fn a_site_s_copyright_line_after_the_sidebar_is_no_article_text() {
    let sidebar: String = (1..=20).map(|i| format!("<li><a href=\"/?cat={i}\">Category number {i}</a></li>")).collect();
    let html = format!(
        r#"<html><head><title>Broken arrows</title></head><body><div id="wrapper">
        <div class="post"><h2>Broken arrows</h2><p>Street signs bent by the storm point every
        way but the right one; a photographer walked the old town to find them all.</p>
        <p><img src="/arrows.jpg" alt=""></p>
        <p>Copyright 2012 The Associated Press. All rights reserved.</p></div>
        <div id="sidebar"><ul>{sidebar}</ul></div>
        <div class="credit">If you find anything interesting here, please link back :-)<br>
        (c) 2012 The Curious Brain | powered by <a href="https://wordpress.org/">WordPress</a></div>
        </div></body></html>"#
    );
    let doc = page("https://brain.example.org/?p=42", &html);
    let text = article::extract(&doc, &Hints::default()).content_text.unwrap();
    assert!(text.contains("a photographer walked the old town"), "{text}");
    assert!(text.contains("The Associated Press. All rights reserved."), "{text}");
    for notice in ["link back", "powered by", "Curious Brain"] {
        assert!(!text.contains(notice), "{notice:?} in {text}");
    }
}

/// Class "callouts": notes, warnings and background boxes set in the body as `<aside>` (Zenn's
/// `:::message`, news sites' info boxes) or with the `alert` role (Docsy's alerts) are the
/// text. A "read also" box of links inside the body, and a sidebar beside it, are not.
#[test]
fn callouts_inside_the_body_are_text_and_link_boxes_are_not() {
    let html = format!(
        r#"<html><head><title>Bridge vote delayed</title></head><body><main><article>
        <h1>Bridge vote delayed</h1><div class="body">{}
        <aside class="infobox"><h3>Background</h3><p>The old ferry has crossed the river since 1911 and
        carries about four hundred people on a working day.</p></aside>
        <div class="alert alert-warning" role="alert"><p>Warning: the figures of the tender are estimates
        until the council publishes the final documents.</p></div>
        <aside class="related"><h3>Read also</h3><a href="/news/ferry-timetable">Ferry timetable changes again this summer</a></aside>
        {}</div></article>
        <aside class="sidebar"><p>Our newsroom is open to visitors every first Saturday of the month, with coffee.</p></aside>
        </main></body></html>"#,
        prose("the bridge", 3),
        prose("the ferry", 2)
    );
    let doc = page("https://town.example/news/bridge-vote", &html);
    let text = article::extract(&doc, &Hints::default()).content_text.unwrap();
    for kept in ["since 1911", "Warning: the figures", "Paragraph 2 about the ferry"] {
        assert!(text.contains(kept), "{kept:?} missing from {text}");
    }
    for dropped in ["Ferry timetable", "Read also", "newsroom is open"] {
        assert!(!text.contains(dropped), "{dropped:?} in {text}");
    }
}

/// Class "revealed by a script": some publishers (WeChat's articles, fade-in themes) hide the
/// article's container (`style="visibility: hidden"`) until a script shows it. A container that
/// holds the page's text is the article, hidden or not; a small hidden part still is not text.
#[test]
fn an_article_hidden_until_a_script_shows_it_is_the_text() {
    let html = format!(
        r#"<html><head><title>Bridge vote delayed</title></head><body>
        <h1>Bridge vote delayed</h1><div id="js_content" style="visibility: hidden; opacity: 0">{}
        <p style="display:none">Tap to open the mini program for more.</p></div></body></html>"#,
        prose("the bridge", 3)
    );
    let doc = page("https://mp.example.com/s/abc", &html);
    let text = article::extract(&doc, &Hints::default()).content_text.unwrap_or_default();
    assert!(text.contains("Paragraph 3 about the bridge"), "{text}");
    assert!(!text.contains("mini program"), "{text}");
}

/// Class "dek above a picture": the standfirst under the headline comes before the byline's
/// avatar (Substack, Ghost) or the lead picture (news sites); it is not that picture's caption,
/// which follows the picture.
#[test]
fn a_dek_above_the_byline_avatar_or_the_lead_picture_is_text() {
    for below in [
        r#"<div class="byline"><img src="/a.jpg" alt="avatar" width="36" height="36"><a href="/@ann">Ann Lee</a> Mar 3, 2024</div>"#,
        r#"<figure><img src="/lead.jpg" alt=""><figcaption>The ferry at dawn. Photo: Ann Lee</figcaption></figure>"#,
    ] {
        let html = format!(
            r#"<html><head><title>Bridge vote delayed</title></head><body><article><header>
            <h1>Bridge vote delayed</h1>
            <h3 class="subtitle">The council wants every document of the tender public before it votes in spring.</h3>
            {below}</header><div class="body">{}</div></article></body></html>"#,
            prose("the bridge", 3)
        );
        let doc = page("https://town.example/news/bridge-vote", &html);
        let text = article::extract(&doc, &Hints::default()).content_text.unwrap();
        assert!(text.contains("wants every document of the tender public"), "{below}: {text}");
        assert!(text.contains("Paragraph 3 about the bridge") && !text.contains("Photo: Ann Lee"), "{text}");
    }
}

#[test]
fn a_line_labelled_as_an_advertisement_is_no_article_text() {
    // A sponsored link at the end of the body, in a paragraph like the article's own, said to
    // be an ad only by its label: the label the law and the ad networks ask for. So is a link
    // to another story labelled "Read more:" or "Lire aussi |" inside the text.
    let html = format!(
        r#"<html><head><title>Bridge vote delayed</title></head><body><article><h1>Bridge vote delayed</h1>
        {}<p class="x"><span>Sponsored: </span><a href="https://ads.example/click?id=1">Continuous delivery
        conference in London this spring, register now</a></p>
        <p>Anzeige <a href="https://ads.example/click?id=2">Günstige Kredite vergleichen</a></p>
        <div><span class="adspot-title">- Advertisement -</span><a href="https://ads.example/click?id=3"><img src="https://ads.example/3.jpg" alt=""></a></div>
        <p><strong>READ MORE:</strong> <a href="/news/flood-damage">Flood damage estimate tops $40 million</a></p>
        <section class="catcher"><span>Lire aussi</span> | <a href="/culture/bibliotheques"><span>Les bibliothèques face à la baisse des prêts</span></a></section>
        {}</article></body></html>"#,
        prose("the bridge", 4),
        prose("the ferry", 1)
    );
    let doc = page("https://town.example/news/bridge-vote", &html);
    let text = article::extract(&doc, &Hints::default()).content_text.unwrap();
    assert!(text.contains("Paragraph 4 about the bridge") && text.contains("Paragraph 1 about the ferry"), "{text}");
    for label in
        ["Continuous delivery", "Kredite", "Advertisement", "READ MORE", "Flood damage", "Lire aussi", "bibliothèques"]
    {
        assert!(!text.contains(label), "{label:?} in {text}");
    }
}

#[test]
fn a_sign_up_form_s_terms_are_no_article_text() {
    // A registration box beside the article holds the site's whole terms and privacy policy,
    // longer than the article: a form that asks for a password or an address is the site's, not
    // the article's, however much text it holds.
    let terms: String = (1..=12)
        .map(|i| {
            format!(
                "<p>Clause {i}. We collect the personal information you give us when you register, keep it \
                 as long as your account is open, share it with the providers who host our service, and \
                 delete it when you ask us to, as the law of the country we operate from requires.</p>"
            )
        })
        .collect();
    let html = format!(
        r#"<html><head><title>Hotel franchise agreements are negotiable</title></head><body>
        <h1>Hotel franchise agreements are negotiable</h1><div class="article">{}</div>
        <div class="box"><form method="post" action="/register"><p>Register for free</p>
        <input type="text" name="name"><input type="password" name="password">
        <div class="el">{terms}</div><input type="submit" value="Register"></form></div></body></html>"#,
        prose("the franchise", 4)
    );
    let doc = page("https://law.example/article/franchise-agreements", &html);
    let text = article::extract(&doc, &Hints::default()).content_text.unwrap();
    assert!(text.contains("Paragraph 4 about the franchise"), "{text}");
    assert!(!text.contains("personal information") && !text.contains("Register for free"), "{text}");
}

#[test]
fn a_description_that_quotes_one_of_the_article_s_code_blocks_keeps_the_whole_article() {
    // A tutorial that opens on a code block: prose between code blocks, each a box of one
    // class. The feed's description quotes the first block; the blocks are alike siblings, but
    // not posts (no headline each), so the hint must not cut the article down to one of them.
    let block = |step: &str, verb: &str| {
        format!(
            r#"<div class="highlight"><pre><code># {step} the loops
schedule = create_schedule(output.op)
outer, inner = schedule[output].{verb}(output.axis[0], factor=32)
schedule[output].{verb}_again(outer, inner)
print(lower_the_schedule(schedule, [placeholder, output]))</code></pre></div>"#
        )
    };
    let html = format!(
        r#"<html><body><article><h1>Tiling loops</h1><div class="article-style">
        <h3>Tiling</h3>{}<p>Then the loops are split and reordered.</p>{}
        <p>Last, the inner loop is vectorized for the machine.</p>{}</div></article></body></html>"#,
        block("tiling", "tile"),
        block("splitting", "split"),
        block("vectorizing", "vectorize")
    );
    let doc = page("https://dev.example/posts/tiling-loops/", &html);
    let hints = Hints {
        title: Some("Tiling loops".into()),
        description: Some(
            "tiling the loops schedule create_schedule output op outer inner schedule output tile".into(),
        ),
        ..Hints::default()
    };
    let text = article::extract(&doc, &hints).content_text.unwrap();
    assert!(text.contains("tile_again") && text.contains("vectorize_again"), "{text}");
}

#[test]
fn metadata_of_a_real_article_page() {
    // A zyte page with JSON-LD and Open Graph: every field is filled and consistent.
    let pages = common::article_set("zyte");
    let mut filled = 0;
    for p in sample(&pages, 20) {
        let doc = html2rss::dom::parse(&p.bytes().unwrap(), &p.url, &Default::default()).unwrap();
        let art = article::extract(&doc, &Hints::default());
        let title = art.title.clone().unwrap_or_default();
        assert!(!title.is_empty() && title.chars().count() < 300, "{}: title {title:?}", p.url);
        if let Some(image) = &art.lead_image {
            assert!(matches!(image.scheme(), "http" | "https"), "{}: {image}", p.url);
        }
        let text = art.content_text.unwrap_or_default();
        assert!(!text.contains(&title) || title.len() < 20, "{}: the headline is in the text", p.url);
        filled += usize::from(art.published.is_some() && art.author.is_some() && art.lang.is_some());
    }
    assert!(filled >= 6, "only {filled} of 10 pages have date, author and language");
}

#[test]
fn a_description_that_quotes_the_lead_keeps_the_whole_article() {
    // The description quotes the standfirst, a block of its own above the body: the hint must
    // not cut the article down to it.
    let html = format!(
        r#"<html><body><article><h1>Bridge vote delayed</h1>
        <div class="standfirst"><p>The council postponed the bridge vote to publish the tender documents first.</p></div>
        <div class="body">{}</div></article><aside><p>Weather: sunny.</p></aside></body></html>"#,
        prose("the bridge", 6)
    );
    let doc = page("https://town.example/news/bridge-vote", &html);
    let hints = Hints {
        title: Some("Bridge vote delayed".into()),
        description: Some("The council postponed the bridge vote to publish the tender documents first.".into()),
        ..Hints::default()
    };
    let text = article::extract(&doc, &hints).content_text.unwrap();
    assert!(text.contains("postponed") && text.contains("Paragraph 6 about the bridge"), "{text}");
}

/// Paragraphs of another topic, `n` of them, for the blocks around an article.
fn sentences(text: &str, n: usize) -> String {
    (1..=n).map(|i| format!("<p>{text} ({i})</p>")).collect()
}

#[test]
fn captions_and_galleries_are_left_out_unless_they_hold_the_article() {
    // A carousel of captions beside the article: its class says gallery, its text is captions.
    let captions = sentences("Secretary Lee shakes hands with the minister in Hanoi on Wednesday, Nov. 20, 2019", 4);
    let html = format!(
        r#"<html><body><article><h1>Bridge vote delayed</h1>
        <div class="gallery carousel"><img src="/1.jpg"><img src="/2.jpg">{captions}</div>
        <div class="body">{}</div></article></body></html>"#,
        prose("the bridge", 6)
    );
    let text =
        article::extract(&page("https://town.example/news/bridge", &html), &Hints::default()).content_text.unwrap();
    assert!(text.contains("Paragraph 6 about the bridge") && !text.contains("shakes hands"), "{text}");
    // A page whose article sits in a `photo-gallery` section (one picture, the whole text).
    let html = format!(
        r#"<html><body><h1>Bridge vote delayed</h1><nav><a href="/">Home</a></nav>
        <section class="article-content content-gallery photo-gallery" itemprop="articleBody">
        <figure><img src="/1.jpg"><figcaption>The old bridge.</figcaption></figure>{}</section></body></html>"#,
        prose("the bridge", 5)
    );
    let text =
        article::extract(&page("https://town.example/news/bridge", &html), &Hints::default()).content_text.unwrap();
    assert!(text.contains("Paragraph 1 about the bridge") && text.contains("Paragraph 5"), "{text}");
    assert!(!text.contains("The old bridge"), "captions are not prose: {text}");
    // A caption without `<figure>`: a line named for the picture right after it, in the
    // picture's wrapper (Sina's `img_wrapper` and `img_descr`, news sites' `photo-note`).
    for wrapper in ["div", "p"] {
        let html = format!(
            r#"<html><body><h1>Bridge vote delayed</h1><div class="article" id="artibody">
            <{wrapper} class="img_wrapper"><img src="/car.jpg" alt=""><span class="img_descr">File photo: the old bridge at dusk</span></{wrapper}>
            {}</div></body></html>"#,
            prose("the bridge", 3)
        );
        let text =
            article::extract(&page("https://town.example/news/bridge", &html), &Hints::default()).content_text.unwrap();
        assert!(text.contains("Paragraph 3 about the bridge") && !text.contains("File photo"), "{wrapper}: {text}");
    }
}

#[test]
fn noscript_markup_saved_as_text_is_an_image_not_prose() {
    // A page saved by a browser that ran scripts keeps `<noscript>` content escaped.
    let html = format!(
        r#"<html><body><article><h1>Masks in the microwave</h1>{}
        <p><noscript>&lt;img class="aligncenter" src="/uploads/mask.jpg" alt="A mask" srcset="/uploads/mask-300.jpg 300w"&gt;</noscript><img class="lazyload" data-src="/uploads/mask.jpg" src="data:image/svg+xml,%3Csvg%3E" alt="A mask"></p>
        {}</article></body></html>"#,
        prose("masks", 3),
        prose("viruses", 3)
    );
    let art = article::extract(&page("https://air.example/masks/", &html), &Hints::default());
    let text = art.content_text.unwrap();
    assert!(!text.contains("img") && !text.contains("srcset") && !text.contains("uploads"), "{text}");
    let content = art.content_html.unwrap();
    assert_eq!(content.matches("https://air.example/uploads/mask.jpg").count(), 1, "{content}");
}

#[test]
fn a_wrapper_whose_class_names_a_sidebar_keeps_the_article_it_holds() {
    // The article is short beside the page's other text (widgets in asides), and its
    // wrapper's class words say `sidebar`: the longest paragraph of the page is in it.
    let long_paragraph = "<p>President Lee joked on Tuesday that it would be a great idea to send the whole council \
        on a journey to the old ferry, as the bridge vote was delayed once more; the residents who came to \
        the hall laughed, the councillors did not, and the mayor promised a decision before the spring.</p>";
    let widget = |topic: &str| {
        format!(
            "<aside><p>{topic}: the weekly column on the town's clubs, fairs and markets, written by our \
             readers, with the dates of every meeting and where to find the organisers this month.</p></aside>"
        )
    };
    let html = format!(
        r#"<html><body><header><h1>Bridge vote delayed</h1></header>
        <div class="content-with-sidebar-wrp"><div class="content-wrp">{long_paragraph}<p>The vote is now set for March.</p></div></div>
        {}{}{}</body></html>"#,
        widget("Clubs"),
        widget("Fairs"),
        widget("Markets")
    );
    let text =
        article::extract(&page("https://town.example/news/bridge", &html), &Hints::default()).content_text.unwrap();
    assert!(text.contains("President Lee joked") && text.contains("set for March"), "{text}");
    assert!(!text.contains("weekly column"), "{text}");
}

#[test]
fn boilerplate_named_inside_compound_class_words_is_left_out() {
    // Author boxes, widgets, legal notices, footers, "enable JavaScript" notices, donation
    // appeals and affiliate disclosures whose class names join the word to another
    // (`postauthor`, `c_copyright`, `site-foot`, `donate-box`), placed inside the article's
    // container where Readability keeps them.
    let html = format!(
        r#"<html><body><div class="post"><h1>Bridge vote delayed</h1>
        <div class="entry-content">{}
        <div class="postauthor-container"><p>Ann grew up by the river and still has a deep love for old ferries, bridges and long walks, \
        especially in autumn. Some of her favourites include the harbour, the old mill, the lighthouse and the \
        market square. She loves nights in with her family, cooking, reading and watching old films.</p></div>
        <div class="socialize-text">If you enjoyed this post, please consider leaving a comment, sharing it with \
        your friends, or subscribing to the feed, to have future articles delivered to your reader, every week, for free.</div></div>
        <noscript><p>Please enable JavaScript to view the comments powered by Disqus.</p></noscript>
        <div id="c_copyright"><p>Town News is the official web site of the town; its name and logo are registered trademarks of the Town News Company, and all rights are reserved.</p></div>
        <div class="site-foot"><p>This page is best viewed in an up-to-date web browser with style sheets enabled, so please upgrade.</p></div>
        <div class="donate-box"><p><strong>Before you go:</strong> Town News is a nonprofit newsroom; if you value our reporting, please chip in with a donation today.</p><a href="/donate/">Donate now</a></div>
        <p class="affiliate-disclosure">We may earn a commission if you buy something through the links in this article, at no extra cost to you.</p>
        </div><div class="widget Text"><p>Town News is the town's longest running paper, documenting every street of the town since 1901.</p></div>
        </body></html>"#,
        prose("the bridge", 5)
    );
    let text =
        article::extract(&page("https://town.example/news/bridge", &html), &Hints::default()).content_text.unwrap();
    assert!(text.contains("Paragraph 1 about the bridge") && text.contains("Paragraph 5"), "{text}");
    let left: Vec<&str> = [
        "deep love",
        "enjoyed this post",
        "enable JavaScript",
        "trademarks",
        "best viewed",
        "longest running",
        "chip in",
        "commission",
    ]
    .into_iter()
    .filter(|b| text.contains(b))
    .collect();
    assert!(left.is_empty(), "{left:?} in {text}");
}

#[test]
fn related_post_dates_are_not_the_publication_date() {
    // The article shows its date in the byline; the related posts after it show theirs in
    // `<time>` elements, nearer the headline than many a byline.
    let related: String = (1..=4)
        .map(|i| format!(r#"<li><a href="/news/{i}">Other story {i}</a> <time datetime="2020-06-1{i}">June 1{i}, 2020</time></li>"#))
        .collect();
    let html = format!(
        r#"<html><body><article><h1>Bridge vote delayed</h1><p class="byline">By Ann Lee, June 7, 2020</p>
        <p>The council postponed the vote on the bridge to publish every document of the tender first.</p></article>
        <aside class="related"><h2>Related</h2><ul>{related}</ul></aside></body></html>"#
    );
    let art = article::extract(&page("https://town.example/news/bridge", &html), &Hints::default());
    assert_eq!(day(art.published), ymd(2020, 6, 7));
}

#[test]
fn a_date_inside_a_teaser_link_dates_that_story() {
    // Teaser cards write the title and the date in one link to the other story, in a section
    // named by nothing but its heading: the page itself shows no date, so it has none. A link
    // of the date alone (to the day's archive) still dates the page.
    let teasers: String = (1..=3)
        .map(|i| {
            format!(
                r#"<div class="teaser"><a href="/science/{i}"><span>Another story about the river, number {i}</span><time datetime="2024-01-2{i} 09:00:00">2{i}.01.2024</time></a></div>"#
            )
        })
        .collect();
    let body = format!("<h1>Wolves counted again</h1>{}", prose("the wolves", 3));
    let html = |byline: &str| {
        format!(
            r#"<html><head><title>Wolves counted again - News</title></head><body><main><article>{body}{byline}</article>
            <section><h2>More from science</h2>{teasers}</section></main></body></html>"#
        )
    };
    let undated = article::extract(&page("https://news.example/science/wolves", &html("")), &Hints::default());
    assert_eq!(day(undated.published), None);
    let archive_link = r#"<p>Posted <a href="/2024/03/05/"><time datetime="2024-03-05">5 March 2024</time></a></p>"#;
    let dated = article::extract(&page("https://news.example/science/wolves", &html(archive_link)), &Hints::default());
    assert_eq!(day(dated.published), ymd(2024, 3, 5));
}

#[test]
fn a_labelled_date_in_an_aside_of_the_article_dates_the_page() {
    // Documentation pages close their article with a metadata box, an `<aside>` ("This page
    // was last modified on <time>"): the page's only date, its modification. An aside of the
    // article named for related pages dates those, labelled or not.
    let html = |aside: &str| {
        format!(
            r#"<html><head><title>Array.prototype.findLast() - Docs</title></head><body><main><article>
            <h1>Array.prototype.findLast()</h1>{}{aside}</article></main></body></html>"#,
            prose("arrays", 3)
        )
    };
    let metadata = r#"<aside class="metadata"><p>This page was last modified on <time datetime="2024-03-05T12:41:33Z">Mar 5, 2024</time> by <a href="/contributors.txt">contributors</a>.</p></aside>"#;
    let doc = page("https://docs.example/en-US/Array/findLast", &html(metadata));
    let art = article::extract(&doc, &Hints::default());
    assert_eq!((day(art.published), day(art.modified)), (None, ymd(2024, 3, 5)));
    let related = r#"<aside class="related-pages"><p><a href="/en-US/Array/find">Array.prototype.find()</a> last modified on <time datetime="2024-01-09">Jan 9, 2024</time></p></aside>"#;
    let doc = page("https://docs.example/en-US/Array/findLast", &html(related));
    let art = article::extract(&doc, &Hints::default());
    assert_eq!((day(art.published), day(art.modified)), (None, None));
}

#[test]
fn updated_lines_give_the_modification_not_the_publication() {
    // "Updated" comes first, nearest the headline; the publication follows.
    let html = format!(
        r#"<html><body><h1>Bridge vote delayed</h1><p>Updated on June 9, 2020</p><p>Published June 7, 2020</p>{}</body></html>"#,
        prose("the bridge", 3)
    );
    let art = article::extract(&page("https://town.example/news/bridge", &html), &Hints::default());
    assert_eq!(day(art.published), ymd(2020, 6, 7));
    // A WordPress byline: the `updated` time element comes before the `published` one.
    let html = format!(
        r#"<html><body><h1>Bridge vote delayed</h1><p><time class="updated" datetime="2020-06-09T08:00:00+02:00">June 9</time>
        <time class="entry-date" datetime="2020-06-07T08:00:00+02:00">June 7</time></p>{}</body></html>"#,
        prose("the bridge", 3)
    );
    let art = article::extract(&page("https://town.example/news/bridge", &html), &Hints::default());
    assert_eq!(day(art.published), ymd(2020, 6, 7));
    // Unmarked time elements told apart by the labels before them (Qiita's header above the
    // headline: 投稿日 … 更新日 …; "Published … · Updated …"), the update nearest the headline.
    for (published, updated) in [("<span>投稿日</span>", "<span>更新日</span>"), ("Published", " · Updated")] {
        let html = format!(
            r#"<html><body><article><div>{published}<time datetime="2020-06-07T10:22:33Z">2020-06-07</time>{updated}
            <time datetime="2020-06-09T02:15:00Z">2020-06-09</time></div><h1>Bridge vote delayed</h1>{}</article></body></html>"#,
            prose("the bridge", 3)
        );
        let art = article::extract(&page("https://town.example/news/bridge", &html), &Hints::default());
        assert_eq!((day(art.published), day(art.modified)), (ymd(2020, 6, 7), ymd(2020, 6, 9)), "{published}");
    }
    // With an "updated" line alone, the page's date is its modification, not a publication.
    let html = format!(
        r#"<html><body><h1>Bridge vote delayed</h1><p>Last updated: June 9, 2020</p>{}</body></html>"#,
        prose("the bridge", 3)
    );
    let art = article::extract(&page("https://town.example/news/bridge", &html), &Hints::default());
    assert_eq!((day(art.published), day(art.modified)), (None, ymd(2020, 6, 9)));
}

#[test]
fn copyright_footers_date_nothing() {
    let html = format!(
        r#"<html><body><h1>Bridge vote delayed</h1>{}
        <footer><p>Copyright © 2021 Town News, 1 Main Street. Site map updated 01/12/2021.</p></footer></body></html>"#,
        prose("the bridge", 2)
    );
    let art = article::extract(&page("https://town.example/news/bridge", &html), &Hints::default());
    assert_eq!((art.published, art.modified), (None, None));
}

#[test]
fn relative_dates_count_only_with_the_fetch_time() {
    let html = format!(
        r#"<html><body><h1>Bridge vote delayed</h1><p class="byline">By Ann Lee, 3 hours ago</p>{}</body></html>"#,
        prose("the bridge", 3)
    );
    let doc = page("https://town.example/news/bridge", &html);
    // A page read later (a saved file) cannot say when "3 hours ago" was.
    assert_eq!(article::extract(&doc, &Hints::default()).published, None);
    let fetched = chrono::DateTime::parse_from_rfc3339("2020-06-07T12:00:00+02:00").unwrap();
    let art = article::extract(&doc, &Hints { fetched: Some(fetched), ..Hints::default() });
    assert_eq!(art.published, Some(fetched - chrono::Duration::hours(3)));
}

#[test]
fn a_photo_caption_s_date_is_the_photo_s_not_the_page_s() {
    // The caption says when the photo was taken; the page's "Créé le" line when it was written.
    for caption in [r#"<p class="caption">"#, "<figcaption>"] {
        let close = if caption.starts_with("<p") { "</p>" } else { "</figcaption>" };
        let html = format!(
            r#"<html lang="fr"><body><div class="article-header"><h1>Le tramway prend six mois de retard</h1>
            <p class="article-date">Créé le 05.03.13 à 08h15 -- Mis à jour le 06.03.13 à 10h02</p></div>
            <div class="article-visuel"><img src="/p.jpg">{caption}Le chantier, près du Palais de justice, le 4 mars 2013.{close}</div>
            <div class="article-corps">{}</div></body></html>"#,
            prose("the tramway", 3)
        );
        let doc = page("http://journal.example/toulouse/1112445-le-tramway-prend-du-retard", &html);
        assert_eq!(day(article::extract(&doc, &Hints::default()).published), ymd(2013, 3, 5), "{caption}");
    }
}

#[test]
fn a_relative_date_with_its_timestamp_in_a_tooltip_dates_the_page() {
    // "3 days ago" for people, the instant in `title` (ISO, or JavaScript's Date form), as
    // forums and news sites write it; a tooltip naming a month dates nothing.
    for title in ["2024-03-05T15:42:00-05:00", "Tue Mar 05 2024 15:42:00 GMT-0500 (Eastern Standard Time)"] {
        let html = format!(
            r#"<html><body><article><h1>Chiefs restructure the contract</h1><div class="meta"><span class="author">Mike
            Danner</span> <span class="story-time" title="{title}">3 days ago</span></div>{}</article></body></html>"#,
            prose("the contract", 3)
        );
        let doc = page("https://sports.example/nfl/news/chiefs-contract", &html);
        assert_eq!(day(article::extract(&doc, &Hints::default()).published), ymd(2024, 3, 5), "{title}");
    }
    let html = format!(
        r#"<html><body><article><h1>Chiefs restructure the contract</h1><a href="/archive/2024/03" title="March 2024">Archive</a>{}</article></body></html>"#,
        prose("the contract", 3)
    );
    let doc = page("https://sports.example/nfl/news/chiefs-contract", &html);
    assert_eq!(article::extract(&doc, &Hints::default()).published, None);
}

#[test]
fn a_date_written_over_several_elements_is_read_whole() {
    // A calendar badge beside the headline: day, month and year each in an element of its own.
    let html = format!(
        r#"<html><body><article><div class="badge"><span class="day">07</span> <span class="month">Jun</span>
        <span class="year">2020</span></div><h1>Bridge vote delayed</h1>{}</article></body></html>"#,
        prose("the bridge", 4)
    );
    let art = article::extract(&page("https://town.example/news/bridge", &html), &Hints::default());
    assert_eq!(day(art.published), ymd(2020, 6, 7));
    // The parts of a date in a byline, without spaces between the elements.
    let html = format!(
        r#"<html><body><article><h1>Bridge vote delayed</h1><p class="meta"><span>Jun</span><span>7</span>,
        <span>2020</span></p>{}</article></body></html>"#,
        prose("the bridge", 4)
    );
    let art = article::extract(&page("https://town.example/news/bridge", &html), &Hints::default());
    assert_eq!(day(art.published), ymd(2020, 6, 7));
    // Numbers in elements side by side that are no date stay none.
    let html = format!(
        r#"<html><body><article><h1>Bridge vote delayed</h1><p class="meta"><span>12</span> comments,
        <span>2020</span> views</p>{}</article></body></html>"#,
        prose("the bridge", 4)
    );
    let art = article::extract(&page("https://town.example/news/bridge", &html), &Hints::default());
    assert_eq!(art.published, None);
}

#[test]
fn a_date_at_the_end_of_a_long_post_dates_it() {
    // The theme shows the date below the post, far from the headline.
    for footer in [
        "<p>Posted on June 7, 2020</p>",
        r#"<footer class="post-footer">Posted on June 7, 2020 in <a href="/c/news">News</a></footer>"#,
        r#"<footer><time datetime="2020-06-07">June 7, 2020</time></footer>"#,
        r#"<div class="post-meta"><span>发表于</span> <span>2020-06-07</span></div>"#,
    ] {
        let html = format!(
            r#"<html><body><article><h1>Bridge vote delayed</h1>{}{footer}</article></body></html>"#,
            prose("the bridge", 80)
        );
        let art = article::extract(&page("https://town.example/news/bridge", &html), &Hints::default());
        assert_eq!(day(art.published), ymd(2020, 6, 7), "{footer}");
    }
    // A date alone deep in the text is an event of the story, not its publication; and a
    // related post's line below the post is the related post's.
    for far in [
        "<p>June 7, 2020</p>",
        r#"<div class="related-posts"><p><a href="/news/ferry">Ferry</a> posted on June 7, 2020</p></div>"#,
    ] {
        let html = format!(
            r#"<html><body><article><h1>Bridge vote delayed</h1>{}{far}{}</article></body></html>"#,
            prose("the bridge", 70),
            prose("the ferry", 20)
        );
        let art = article::extract(&page("https://town.example/news/bridge", &html), &Hints::default());
        assert_eq!(art.published, None, "{far}");
    }
    // A documentation page says when it was last updated, below the text.
    let html = format!(
        r#"<html lang="en-us"><body><main><h1>Bridge guide</h1>{}<div class="page-meta"><span class="prefix">Last Updated:</span>
        <span class="time">6/9/2020, 10:00:00 AM</span></div></main></body></html>"#,
        prose("the bridge", 80)
    );
    let art = article::extract(&page("https://town.example/guide/bridge", &html), &Hints::default());
    assert_eq!((day(art.published), day(art.modified)), (None, ymd(2020, 6, 9)));
}

#[test]
fn an_element_named_after_its_date_dates_the_page_wherever_it_sits() {
    let tags: String = (1..=15).map(|i| format!(r#"<li><a href="/tags/t{i}">Tag {i}</a></li>"#)).collect();
    for (before, after) in [
        // Above the headline, past the post's categories and tags.
        (format!(r#"<div class="post-date">June 7, 2020</div><ul class="tags">{tags}</ul>"#), String::new()),
        // Below a long post.
        (String::new(), r#"<div class="post-info"><span class="meta-date">2020-06-07</span></div>"#.to_string()),
    ] {
        let html = format!(
            r#"<html><body><article>{before}<h1>Bridge vote delayed</h1>{}{after}</article></body></html>"#,
            prose("the bridge", 80)
        );
        let art = article::extract(&page("https://town.example/news/bridge", &html), &Hints::default());
        assert_eq!(day(art.published), ymd(2020, 6, 7), "{before}{after}");
    }
    // An element named after an update does not give the publication.
    let html = format!(
        r#"<html><body><article><h1>Bridge vote delayed</h1>{}<span class="date-updated">2020-06-09</span></article></body></html>"#,
        prose("the bridge", 80)
    );
    let art = article::extract(&page("https://town.example/news/bridge", &html), &Hints::default());
    assert_eq!(art.published, None);
}

#[test]
fn dates_in_script_data_beside_the_headline_are_not_shown_dates() {
    // A script's data may date anything (the build, another post); people do not see it.
    let html = format!(
        r#"<html><body><article><h1>Bridge vote delayed</h1><script type="application/json">{{"built":"2020-06-09"}}</script>
        <style>/* 2020-06-10 */</style>{}</article></body></html>"#,
        prose("the bridge", 3)
    );
    let art = article::extract(&page("https://town.example/news/bridge", &html), &Hints::default());
    assert_eq!((art.published, art.modified), (None, None));
}

/// Class "table layout": a page laid out by a table (menu in one cell, article in the next, as
/// sites were built before CSS and newsletters still are). The menu is no text of the article,
/// and no cell's text runs into the next one's; a data table inside the article stays a table.
#[test]
fn a_page_laid_out_by_a_table_gives_its_article_cell() {
    let html = format!(
        r#"<html><head><title>The Great Mill Fire - Oldtown Historical Society</title></head><body>
        <table width="100%"><tr><td width="160" valign="top"><a href="/">Home</a><br><a href="/articles.html">Articles</a><br>
        <a href="/contact.html">Contact Us</a></td>
        <td valign="top"><b>The Great Mill Fire</b><br><i>Posted on 03/14/2019</i><br><br>{}
        <table><tr><th>Year</th><th>Mill</th><th>Losses</th></tr><tr><td>1911</td><td>Hargrove</td><td>$40,000</td></tr>
        <tr><td>1923</td><td>Baker</td><td>$12,000</td></tr><tr><td>1931</td><td>Lowell</td><td>$9,500</td></tr></table></td></tr>
        <tr><td colspan="2" align="center">Copyright 2003-2024 Oldtown Historical Society</td></tr></table></body></html>"#,
        prose("the mill", 3)
    );
    let art = article::extract(&page("https://oldtown.example/mill-fire.html", &html), &Hints::default());
    let text = art.content_text.unwrap_or_default();
    assert!(!text.contains("Contact Us"), "{text}");
    assert!(text.contains("Paragraph 1 about the mill") && text.contains("Paragraph 3 about the mill"), "{text}");
    let html = art.content_html.unwrap_or_default();
    assert!(html.contains("<th>Losses</th>") && html.contains("<td>Hargrove</td>"), "{html}");
}

/// Class "heading with its controls": MediaWiki (since 1.43) wraps each section heading with
/// its edit link, documentation sites with a permalink anchor; the headings are the article's.
#[test]
fn section_headings_wrapped_with_their_edit_links_are_kept() {
    let section = |title: &str, control: &str, topic: &str| {
        format!(
            r#"<div class="mw-heading mw-heading2"><h2 id="{title}">{title}</h2>{control}</div>{}"#,
            prose(topic, 2)
        )
    };
    let html = format!(
        r#"<html><body><div id="content"><h1>Salt railway</h1><div id="siteSub">From the free encyclopedia</div>
        <div id="bodyContent"><div class="mw-parser-output">{}{}{}{}</div></div></div></body></html>"#,
        prose("the railway", 1),
        section("History", r#"<span class="mw-editsection"></span>"#, "its history"),
        section(
            "Preservation",
            r##"<span class="mw-editsection">[<a href="/edit?section=2">edit</a>]</span>"##,
            "its rescue"
        ),
        section("Route", r##"<a class="anchor" href="#Route">#</a>"##, "its route"),
    );
    let art = article::extract(&page("https://wiki.example/wiki/Salt_railway", &html), &Hints::default());
    let text = art.content_text.unwrap_or_default();
    let paragraphs: Vec<&str> = text.split("\n\n").collect();
    for heading in ["History", "Preservation", "Route"] {
        assert!(paragraphs.contains(&heading), "{heading} missing: {text}");
    }
    assert!(!text.contains("edit") && !text.contains('#'), "{text}");
}

/// Class "byline without a class": a line of the article's metadata under the headline (who
/// wrote and reviewed it, when, how long it reads) is no text of the article, whatever its
/// class; a sentence of the text with a dash and a date in it is.
#[test]
fn a_metadata_line_without_a_class_is_left_out_of_the_text() {
    for meta in [
        "Medically reviewed by Dr. Sara Lind, RD — Written by Mia Chen — Updated on April 18, 2025",
        "By Ann Lee · June 7, 2020 · 4 min read",
    ] {
        let html = format!(
            r#"<html><body><article><h1>Is oat milk healthy?</h1><p class="review">{meta}</p><div class="entry">
            <p>The storm reached the coast on April 18, 2025 — two days before the forecast said it would.</p>
            <h3>Day 3 · April 19, 2025</h3>{}</div>
            </article></body></html>"#,
            prose("oat milk", 3)
        );
        let art = article::extract(&page("https://health.example/oat-milk", &html), &Hints::default());
        let text = art.content_text.unwrap_or_default();
        assert!(!text.contains("Written by") && !text.contains("min read"), "{meta}: {text}");
        assert!(text.contains("two days before the forecast") && text.contains("Day 3"), "{text}");
        assert!(text.contains("oat milk"), "{text}");
    }
}

/// Class "dateline in the lead": news agencies and newspapers open a story with its place and
/// day ("SPRINGFIELD, Oct. 7, 2025 — …", "BERLIN, March 3 (Reuters) - …"), often the only date
/// the page shows.
#[test]
fn a_wire_dateline_opening_the_story_dates_it() {
    let story = |lead: &str| {
        format!(
            r#"<html><body><article><h1>Water rates to rise</h1><p class="byline">By Lena Cho, Staff Reporter</p>
            <div class="entry"><p>{lead} The regional water utility will raise rates by 6.5 percent next year to pay
            for replacing lead service lines, its board decided after a long hearing.</p>{}</div></article></body></html>"#,
            prose("the rates", 2)
        )
    };
    let read = |lead: &str, fetched: Option<&str>| {
        let fetched = fetched.map(|f| chrono::DateTime::parse_from_rfc3339(f).unwrap());
        let doc = page("https://wire.example/news/rates", &story(lead));
        day(article::extract(&doc, &Hints { fetched, ..Hints::default() }).published)
    };
    assert_eq!(read("SPRINGFIELD, Oct. 7, 2025 —", None), ymd(2025, 10, 7));
    // Without its year, the day is the last one before the fetch.
    assert_eq!(read("BERLIN, March 3 (Reuters) -", Some("2025-03-04T08:00:00Z")), ymd(2025, 3, 3));
    // Press releases: the state after the city, the wire in slashes, two hyphens for the dash.
    assert_eq!(read("DAYTON, Ohio, March 8, 2011 /PRNewswire/ --", None), ymd(2011, 3, 8));
    assert_eq!(read("NEW YORK, March 08, 2011 (GLOBE NEWSWIRE) --", None), ymd(2011, 3, 8));
    // A place and a comma opening a sentence date nothing; nor does a date inside the lead.
    assert_eq!(read("Springfield, a town of 40,000 people –", None), None);
    assert_eq!(read("On Oct. 7, 2025 the board met —", None), None);
}

/// Class "lead marked as a dateline": press releases mark their first paragraph, which opens
/// with the dateline, by it (`<p class="dateline">`); it is the lead, while a line of the date
/// alone marked so is no text.
#[test]
fn a_paragraph_marked_for_the_dateline_it_opens_with_is_text() {
    let html = format!(
        r#"<html><body><div class="release"><h1>Northfield Robotics opens a plant in Ohio</h1>
        <p class="dateline">March 8, 2011</p><div id="releaseBody">
        <p class="dateline">DAYTON, Ohio, March 8, 2011 /PRNewswire/ -- Northfield Robotics, a maker of industrial
        automation systems, today announced the opening of a 120,000-square-foot assembly plant in Dayton.</p>{}</div>
        </div></body></html>"#,
        prose("the plant", 3)
    );
    let art = article::extract(&page("https://press.example/news/northfield-plant", &html), &Hints::default());
    let text = art.content_text.unwrap_or_default();
    assert!(text.starts_with("DAYTON, Ohio, March 8, 2011 /PRNewswire/ -- Northfield"), "{text}");
    assert_eq!(day(art.published), ymd(2011, 3, 8));
}

/// Class "page builder modules": Elementor, Divi and their kin set an article in modules of one
/// kind, each wrapped three or four deep (`elementor-widget elementor-widget-text-editor` >
/// `elementor-widget-container`; `et_pb_row` > column > `et_pb_module` > inner), headings in
/// modules of their own; the builder names them `widget`, a word of sidebars' boxes. Every
/// module of text and heading is the article's; the builder's share buttons are not, and
/// neither is a box of teasers of a kind of its own.
#[test]
fn an_article_set_in_page_builder_modules_keeps_every_module() {
    let elementor = |kind: &str, id: &str, inner: &str| {
        format!(
            r#"<div class="elementor-element elementor-element-{id} elementor-widget elementor-widget-{kind}"><div class="elementor-widget-container">{inner}</div></div>"#
        )
    };
    let paragraph = |topic: &str| {
        format!(
            "<p>The starter for {topic} needs flour, water and patience: mix equal weights, cover the jar \
             loosely and keep it somewhere warm, feeding it every day until it doubles.</p>"
        )
    };
    let modules = [
        elementor("text-editor", "1a", &paragraph("the intro")),
        elementor("heading", "2b", "<h2>What you need</h2>"),
        elementor("text-editor", "3c", &(paragraph("rye bread") + &paragraph("wheat bread"))),
        elementor("heading", "4d", "<h2>The seven days</h2>"),
        elementor("text-editor", "5e", &(paragraph("day one") + &paragraph("day two") + &paragraph("day three"))),
        elementor(
            "share-buttons",
            "6f",
            r#"<a href="https://facebook.example/share">Facebook</a> <a href="https://x.example/share">Share on X</a>"#,
        ),
    ]
    .concat();
    let html = format!(
        r#"<html><head><title>Sourdough at home - Kitchen</title></head><body><div class="elementor">
        <h1>Sourdough at home</h1>{modules}</div><aside class="sidebar"><div class="widget"><h3>Recent</h3>
        <ul><li><a href="/pizza">Pizza dough</a></li><li><a href="/bagels">Bagels</a></li></ul></div></aside></body></html>"#
    );
    let art = article::extract(&page("https://kitchen.example/sourdough", &html), &Hints::default());
    let text = art.content_text.unwrap_or_default();
    for part in ["the intro", "What you need", "rye bread", "The seven days", "day three"] {
        assert!(text.contains(part), "{part} missing: {text}");
    }
    assert!(!text.contains("Facebook") && !text.contains("Pizza dough"), "{text}");

    let divi = |n: usize, inner: &str| {
        format!(
            r#"<div class="et_pb_row et_pb_row_{n}"><div class="et_pb_column et_pb_column_4_4"><div class="et_pb_module et_pb_text et_pb_text_{n}"><div class="et_pb_text_inner">{inner}</div></div></div></div>"#
        )
    };
    let html = format!(
        r#"<html><head><title>Stretches for desk workers</title></head><body><article><h1>Stretches for desk workers</h1>
        <div class="et_pb_section">{}{}</div></article></body></html>"#,
        divi(0, &paragraph("the intro")),
        divi(
            1,
            &(String::from("<h3>1. Figure-four hip stretch</h3>")
                + &paragraph("hips")
                + "<h3>2. Forward fold</h3>"
                + &paragraph("the back")
                + &paragraph("the neck"))
        ),
    );
    let art = article::extract(&page("https://yoga.example/stretches", &html), &Hints::default());
    let text = art.content_text.unwrap_or_default();
    assert!(text.contains("the intro") && text.contains("Figure-four") && text.contains("the neck"), "{text}");
}

/// Class "heading named header": sites name a heading of the text by what it is
/// (`<h2 class="subheader">`, a recipe card's `wprm-recipe-header`); Readability drops every
/// heading whose class says "header". The heading is the text's.
#[test]
fn a_heading_whose_class_says_header_is_text() {
    let html = format!(
        r#"<html><body><div class="article__content"><h1>Later school start times led to more sleep</h1>{}
        <h2 class="subheader">Beyond the bedtime</h2>{}<h3 class="wprm-recipe-header">Ingredients</h3>
        <ul><li>Two cups of flour, sifted twice</li><li>One cup of warm water</li></ul></div></body></html>"#,
        prose("sleep", 3),
        prose("school", 2)
    );
    let text = article::extract(&page("https://news.example/health/sleep", &html), &Hints::default())
        .content_text
        .unwrap_or_default();
    assert!(text.contains("Beyond the bedtime") && text.contains("Ingredients"), "{text}");
}

#[test]
fn a_long_byline_that_says_posted_dates_the_page() {
    // WordPress's classic byline runs past a byline's length, and says which date it gives.
    let html = format!(
        r#"<html><body><article><h1>Bridge vote delayed</h1>{}<p class="postmetadata">This entry was posted on
        Sunday, June 7th, 2020 at 10:15 am and is filed under Council News. You can follow any responses to
        this entry through the RSS 2.0 feed.</p></article></body></html>"#,
        prose("the bridge", 3)
    );
    let art = article::extract(&page("https://town.example/news/bridge", &html), &Hints::default());
    assert_eq!(day(art.published), ymd(2020, 6, 7));
    // One line with both dates: the one the line says is the publication.
    let html = format!(
        r#"<html><body><h1>Bridge vote delayed</h1><p>Updated June 9, 2020 · Published June 7, 2020</p>{}</body></html>"#,
        prose("the bridge", 3)
    );
    let art = article::extract(&page("https://town.example/news/bridge", &html), &Hints::default());
    assert_eq!(day(art.published), ymd(2020, 6, 7));
}

#[test]
fn the_standfirst_between_the_headline_and_the_body_is_kept() {
    // The summary is a block of its own before the body's block, not a paragraph beside the
    // body's paragraphs: Readability leaves it out.
    let html = format!(
        r#"<html><body><section><a href="/news/">News</a><h1>Bridge vote delayed</h1></section>
        <figure><img src="/bridge.jpg"></figure><p class="credit">The old bridge, seen from the ferry (Photo: Town News).</p>
        <div class="post-content"><div class="synopsis module"><h5>In Brief</h5>The council postponed the vote on the new
        bridge by three months, to publish every document of the tender first. Residents may comment until March.</div>
        <div class="summary module"><h2>New priorities</h2>{}</div></div></body></html>"#,
        prose("the bridge", 12)
    );
    let text =
        article::extract(&page("https://town.example/news/bridge", &html), &Hints::default()).content_text.unwrap();
    assert!(text.starts_with("The council postponed the vote"), "{text}");
    assert!(text.contains("Paragraph 12 about the bridge"), "{text}");
    assert!(!text.contains("seen from the ferry"), "a caption is no standfirst: {text}");
}

#[test]
fn bylines_cookie_banners_read_more_lists_and_tag_clouds_are_left_out() {
    // Each sits inside the article's container, where Readability keeps what it does not know.
    let html = format!(
        r#"<html><body><div id="cookie-notice"><p>We use cookies to improve your experience on our site. By continuing
        to browse, you agree to our use of cookies.</p><button>Accept</button></div>
        <article><h1>Bridge vote delayed</h1><p class="byline">By Ann Lee, Town Reporter</p>
        <div class="entry-content">{}
        <div class="read-more"><h3>Read more</h3><ul><li><a href="/ferry">Ferry timetable changes again this summer</a></li>
        <li><a href="/mill">The old mill reopens as a museum</a></li><li><a href="/market">Market square to be repaved</a></li></ul></div>
        <div class="tagcloud"><a href="/tag/bridge" rel="tag">bridge</a> <a href="/tag/council" rel="tag">council</a>
        <a href="/tag/ferry" rel="tag">ferry</a> <a href="/tag/tender" rel="tag">tender</a></div>
        </div></article></body></html>"#,
        prose("the bridge", 5)
    );
    let text =
        article::extract(&page("https://town.example/news/bridge", &html), &Hints::default()).content_text.unwrap();
    assert!(text.contains("Paragraph 1 about the bridge") && text.contains("Paragraph 5"), "{text}");
    let left: Vec<&str> = ["use cookies", "By Ann Lee", "Ferry timetable", "old mill", "tender\n", "council ferry"]
        .into_iter()
        .filter(|b| text.contains(b))
        .collect();
    assert!(left.is_empty(), "{left:?} in {text}");
}

#[test]
fn chinese_and_japanese_text_is_measured_in_characters() {
    // No spaces between words: a paragraph of 80 characters is as long as a paragraph of 40
    // English words, and a menu of short labels is still a menu.
    let zh: String = (1..=6)
        .map(|i| format!("<p>第{i}段：市议会在一个下雨的晚上开会，听取了居民的意见，比较了新桥和旧渡轮的费用，经过长时间的辩论，同意在春季投票之前公布招标的所有文件。</p>"))
        .collect();
    let html = format!(
        r#"<html><body><ul class="nav"><li><a href="/">首页</a></li><li><a href="/news">新闻</a></li><li><a href="/city">城市</a></li></ul>
        <div class="main"><h1>新桥投票推迟</h1><div class="content">{zh}</div></div>
        <div class="hot"><h3>热门文章</h3><ul><li><a href="/a">渡轮时刻表今夏再次调整</a></li><li><a href="/b">老磨坊改建为博物馆</a></li></ul></div>
        </body></html>"#
    );
    let text =
        article::extract(&page("https://town.example/news/bridge", &html), &Hints::default()).content_text.unwrap();
    assert!(text.contains("第1段") && text.contains("第6段"), "{text}");
    assert!(!text.contains("渡轮时刻表") && !text.contains("首页"), "{text}");
    let ja: String = (1..=6)
        .map(|i| format!("<p>第{i}段落：市議会は雨の夜に開かれ、住民の意見を聞き、新しい橋と古いフェリーの費用を比べ、長い議論の末、春の投票の前に入札の全書類を公開することに合意した。</p>"))
        .collect();
    let html = format!(
        r#"<html><body><div class="main"><h1>橋の投票が延期</h1><div class="content">{ja}</div>
        <div class="ranking"><h3>人気記事</h3><ol><li><a href="/a">フェリーの時刻表が今夏も変更</a></li><li><a href="/b">古い水車小屋が博物館に</a></li></ol></div></div>
        </body></html>"#
    );
    let text =
        article::extract(&page("https://town.example/news/bridge", &html), &Hints::default()).content_text.unwrap();
    assert!(text.contains("第1段落") && text.contains("第6段落"), "{text}");
    assert!(!text.contains("フェリーの時刻表"), "{text}");
}

#[test]
fn a_short_post_in_a_widget_classed_block_is_its_text_not_a_sidebar_label() {
    // Two sentences in a block whose class names a widget (Blogger): pruned with the sidebar's
    // widgets, Readability falls back on a sidebar's label.
    let html = r#"<html><head><title>Project Blog: Release 2.5 is here!</title></head><body>
        <div id="header"><h1>Project Blog</h1></div><div id="main"><div class="widget Blog"><div class="post">
        <h3 class="post-title"><a href="/2012/10/release.html">Release 2.5 is here!</a></h3>
        <h2 class="date-header">Posted by Ann Lee - Friday, October 26, 2012</h2>
        <div class="post-body"><p>Thanks to everyone who tested the release candidates and reported issues to us.<br>
        You can download this release from our <a href="/download">download page</a>. Release notes are here.</p></div>
        </div></div></div><div id="sidebar"><div class="widget"><h2>Archives</h2><select><option>Archives</option>
        <option>October (2)</option><option>September (4)</option></select></div>
        <div class="widget"><h2>Links</h2><ul><li><a href="/a">Project home</a></li><li><a href="/b">Issue tracker</a></li></ul></div></div>
        </body></html>"#;
    let text = article::extract(&page("https://blog.example/2012/10/release.html", html), &Hints::default())
        .content_text
        .unwrap();
    assert!(text.contains("Thanks to everyone who tested") && text.contains("Release notes are here"), "{text}");
    assert!(!text.contains("Archives") && !text.contains("Issue tracker"), "{text}");
}

#[test]
fn teaser_cards_of_other_stories_are_left_out() {
    // A list of cards (a linked heading and a teaser line each) inside the article's column.
    let cards: String = ["Persian passion", "Nuclear bank", "Class system", "Faces inverted"]
        .iter()
        .enumerate()
        .map(|(i, t)| {
            format!(r#"<li class="medium-image"><h3><a href="/news/{i}"><img src="/{i}.jpg">{t}</a></h3><p>Why readers love story number {i} this week</p></li>"#)
        })
        .collect();
    let html = format!(
        r#"<html><body><div class="story-body"><h1>Bridge vote delayed</h1>{}<ul>{cards}</ul></div></body></html>"#,
        prose("the bridge", 5)
    );
    let text =
        article::extract(&page("https://town.example/news/bridge", &html), &Hints::default()).content_text.unwrap();
    assert!(text.contains("Paragraph 5 about the bridge"), "{text}");
    assert!(!text.contains("readers love") && !text.contains("Nuclear bank"), "{text}");
}

/// Class "picture cards without headings": a "Most popular" box after the text whose cards are
/// a picture and a title that link to the same other page, and a line of teaser; the title is a
/// `<div>`, not a heading. A picture and a title linked to one page make a card however it is
/// marked up; a roundup made of such cards holds most of the page's text and is the article.
#[test]
fn picture_cards_whose_titles_are_no_headings_are_left_out() {
    let cards: String = ["Protein diet", "Buckwheat diet", "Cabbage soup", "Apple days"]
        .iter()
        .enumerate()
        .map(|(i, t)| {
            format!(
                r#"<div class="c"><div class="r"><a href="/diet-{i}.html"><img src="/{i}.jpg" alt="{t}"></a></div>
                <div class="n"><a href="/diet-{i}.html">{t}</a></div><div class="b">Loses up to {i} kilos in
                fourteen days, with two menus to choose from and no coming back, as readers who tried it
                wrote to us, and a shopping list for each week that fits any budget.</div></div>"#
            )
        })
        .collect();
    let html = format!(
        r#"<html><body><div id="main"><h1>The low-carbohydrate diet</h1><div class="text">{}</div>
        <div id="c3"><h2>Most popular diets</h2>{cards}</div></div></body></html>"#,
        prose("the diet", 5)
    );
    let text =
        article::extract(&page("https://diets.example/low-carb.html", &html), &Hints::default()).content_text.unwrap();
    assert!(text.contains("Paragraph 5 about the diet"), "{text}");
    assert!(!text.contains("Most popular") && !text.contains("fourteen days"), "{text}");

    // A roundup whose items are such cards, each with a review: the cards are the article.
    let reviews: String = ["Ferry one", "Ferry two", "Ferry three", "Ferry four"]
        .iter()
        .enumerate()
        .map(|(i, t)| {
            format!(
                r#"<div class="c"><a href="https://shop.example/{i}"><img src="/{i}.jpg"></a>
                <div class="n"><a href="https://shop.example/{i}">{t}</a></div>{}</div>"#,
                prose(&format!("ferry model {i}"), 2)
            )
        })
        .collect();
    let html = format!(
        r#"<html><body><div id="main"><h1>The best ferries</h1><p>Four ferries we rode this summer.</p>
        <div class="list">{reviews}</div></div></body></html>"#
    );
    let text =
        article::extract(&page("https://town.example/ferries.html", &html), &Hints::default()).content_text.unwrap();
    assert!(text.contains("Paragraph 2 about ferry model 3"), "{text}");
}

/// Class "box title left behind": a "Related articles" heading over a list of cards inside
/// the post's column. The cards go; their heading, with nothing under it at the end of the
/// text, goes with them. A long heading that closes the text is the writer's last sentence.
#[test]
fn a_heading_left_with_nothing_under_it_at_the_end_is_left_out() {
    let cards: String = ["Kindle shortcuts", "Password managers", "Tray icons"]
        .iter()
        .enumerate()
        .map(|(i, t)| {
            format!(r#"<li><h4><a href="/blog/{i}.html">{t}</a></h4><p>A note on {t} from last year.</p></li>"#)
        })
        .collect();
    let ending = "<h3>In summary, the shortcut was taken by another program, and the only cure was to clear it and restart the machine.</h3>";
    let html = format!(
        r#"<html><body><div class="post"><h1>Taking a shortcut back</h1>{}{ending}
        <div class="c2"><h3>Related articles</h3><ul>{cards}</ul></div></div></body></html>"#,
        prose("the shortcut", 4)
    );
    let text =
        article::extract(&page("https://notes.example/shortcut.html", &html), &Hints::default()).content_text.unwrap();
    assert!(text.contains("Paragraph 4 about the shortcut") && text.contains("In summary, the shortcut"), "{text}");
    assert!(!text.contains("Related articles") && !text.contains("from last year"), "{text}");
}

/// Class "code comments": syntax highlighters mark a code comment `<span class="comment">`
/// (highlight.js `hljs-comment`, Hexo, Rouge); inside code it is the program's text, not a
/// reader's comment, and stays with the code.
#[test]
fn comments_in_highlighted_code_stay_with_the_code() {
    let html = format!(
        r#"<html><body><article><h1>Color spaces in OpenCV</h1>{}
        <figure class="highlight python"><table><tr><td class="code"><pre><span class="line"><span class="comment"># -*-coding:utf-8-*-</span></span><br>
        <span class="line"><span class="keyword">import</span> cv2</span><br><span class="line">img = cv2.imread(path)  <span class="comment"># BGR, each channel 0-255</span></span></pre></td></tr></table></figure>
        {}<pre><code><span class="hljs-comment">// reads the image once</span>
        let image = read(path);</code></pre></article></body></html>"#,
        prose("color spaces", 2),
        prose("channels", 2)
    );
    let text =
        article::extract(&page("https://blog.example/2020/colors/", &html), &Hints::default()).content_text.unwrap();
    for part in ["coding:utf-8", "import cv2", "each channel 0-255", "reads the image once", "read(path)"] {
        assert!(text.contains(part), "{part} is lost: {text}");
    }
}

/// Class "headings styled like bars or named for their words": Docusaurus styles every
/// section heading `anchor anchorWithStickyNavbar_…`, and generators give a heading an id made
/// of its own words (`id="related-work"`, `id="sharing-state"`). Neither makes the heading a
/// navigation bar or a related-posts box; a heading whose class says it holds the date does.
#[test]
fn section_headings_keep_their_place_whatever_their_layout_class_or_slug() {
    let heading = |id: &str, text: &str| {
        format!(
            r##"<h2 class="anchor anchorWithStickyNavbar_F8Dq" id="{id}">{text}<a href="#{id}" class="hash-link" aria-label="Direct link to {text}">&#8203;</a></h2>"##
        )
    };
    let html = format!(
        r#"<html><body><article><h1>Dumping a database</h1><h2 class="date">January 17, 2004</h2>{}{}{}{}{}{}</article></body></html>"#,
        heading("1-create-the-dump", "1. Create the dump"),
        prose("the dump", 2),
        heading("related-work", "Related work"),
        prose("other tools", 2),
        heading("sharing-state", "Sharing state between servers"),
        prose("shared state", 2),
    );
    let text =
        article::extract(&page("https://docs.example/blog/dump/", &html), &Hints::default()).content_text.unwrap();
    for part in
        ["1. Create the dump", "Related work", "Sharing state between servers", "Paragraph 2 about shared state"]
    {
        assert!(text.contains(part), "{part} is lost: {text}");
    }
    assert!(!text.contains("January 17, 2004"), "{text}");
}

/// Class "paragraphs typed as line breaks": a source credit, then `<br><br>` and the lead with a
/// quoted link, all in one `<p>`. Readability turns such a `<p>` into a `<div>` and then drops
/// it for its links; the lead is the article's.
#[test]
fn a_lead_after_a_double_line_break_is_kept() {
    let html = format!(
        r#"<html><body><h1>Bridge vote delayed</h1><div class="article-content">
        <p><em><a href="https://wire.example/bridge">Town Wire</a></em><br /> <br />
        The council will publish every bid for the new bridge before it votes, a
        <a href="https://town.example/notes">note from the clerk says</a> after a long evening.<br />
        <a href="/bridge.jpg"><img src="/bridge.jpg" width="450"></a></p>{}</div></body></html>"#,
        prose("the bridge", 3)
    );
    let text =
        article::extract(&page("https://town.example/news/bridge", &html), &Hints::default()).content_text.unwrap();
    assert!(text.contains("publish every bid") && text.contains("Paragraph 3 about the bridge"), "{text}");
}

/// Class "legal notice longer than the article": a short match report, then the site's
/// copyright block (a list of trademarks, as long as the report). The notice is the site's, on
/// every page; its size does not make it the article's.
#[test]
fn a_long_copyright_notice_is_left_out() {
    let trademarks = "The league shield, the cup, the arena names and logos, the winter classic name, the \
        awards name and logo are registered trademarks of the league. "
        .repeat(6);
    let html = format!(
        r#"<html><body><div id="page"><h1>Harbour beat the Millers 9-1</h1><div class="story">{}</div>
        <div id="c_copyright"><div id="copyright">{trademarks} All Rights Reserved.</div></div></div></body></html>"#,
        prose("the match", 3)
    );
    let text =
        article::extract(&page("https://league.example/news/match", &html), &Hints::default()).content_text.unwrap();
    assert!(text.contains("Paragraph 3 about the match"), "{text}");
    assert!(!text.contains("registered trademarks"), "{text}");
}

/// Class "boxes of teaser cards beside the text": a second column of boxes, each a heading
/// over cards (a linked heading and a teaser each), holds more text than a short post. The
/// boxes are left out whatever their class; a document whose sections' headings link to
/// themselves (`#part-2`) keeps every section.
#[test]
fn boxes_of_teaser_cards_are_left_out_but_self_linked_sections_stay() {
    let cards = |box_title: &str, topics: [&str; 4]| -> String {
        let cards: String = topics
            .iter()
            .map(|t| {
                format!(
                    r#"<div class="entry"><p>November 12</p><h5><a href="/2012/11/12/{t}/">{t}</a></h5>
                    <p>{t}: an unrelated answer makes for a password that is easy to remember, and hard to
                    break for anyone who knows a little about you, your family and your town.</p></div>"#
                )
            })
            .collect();
        format!(r#"<div class="box module"><h4>{box_title}</h4>{cards}</div>"#)
    };
    let html = format!(
        r#"<html><body><div class="wrap"><div id="a"><h1>Photos from camera to tablet</h1>
        <div class="post">{}</div></div><div id="c">{}{}</div></div></body></html>"#,
        prose("the camera", 3),
        cards("Recent Posts", ["Password questions", "Filtering videos", "Slow add-ons", "Two tablets"]),
        cards("Most Emailed", ["Old docks", "New cables", "Card readers", "Photo apps"]),
    );
    let text = article::extract(&page("https://gadgets.example/2012/11/06/photos/", &html), &Hints::default())
        .content_text
        .unwrap();
    assert!(text.contains("Paragraph 3 about the camera"), "{text}");
    assert!(!text.contains("unrelated answer"), "{text}");

    let sections: String = (1..=4)
        .map(|i| {
            format!(
                r##"<section><h2><a href="#part-{i}">Part {i}</a></h2>{}</section>"##,
                prose(&format!("part {i}"), 1)
            )
        })
        .collect();
    let html =
        format!(r#"<html><body><h1>A guide in four parts</h1><div class="guide">{sections}</div></body></html>"#);
    let text = article::extract(&page("https://docs.example/guide/", &html), &Hints::default()).content_text.unwrap();
    assert!((1..=4).all(|i| text.contains(&format!("about part {i}"))), "{text}");
}

/// Class "calendar widget": a blog's month grid (a table of day numbers) beside a post is no
/// part of it; a table of figures in the post is.
#[test]
fn a_month_grid_is_left_out_but_a_table_of_figures_stays() {
    let weeks: String = (0..5)
        .map(|w| {
            let days: String = (1..=7)
                .map(|d| w * 7 + d)
                .map(|d| format!("<td>{}</td>", if d <= 31 { d.to_string() } else { String::new() }))
                .collect();
            format!("<tr>{days}</tr>")
        })
        .collect();
    let figures =
        "<table><tr><td>Ferry</td><td>1,250 riders</td></tr><tr><td>Bridge</td><td>8,400 cars</td></tr></table>";
    let html = format!(
        r#"<html><body><div class="wrap"><h1>A winter of ferries</h1>{}{figures}
        <table id="calendar"><caption>December 2006</caption><tr><th>M</th><th>T</th><th>W</th><th>T</th><th>F</th><th>S</th><th>S</th></tr>{weeks}</table></div></body></html>"#,
        prose("the ferries", 3)
    );
    let text = article::extract(&page("https://blog.example/2006/12/ferries/", &html), &Hints::default())
        .content_text
        .unwrap();
    assert!(text.contains("8,400 cars") && text.contains("Paragraph 3 about the ferries"), "{text}");
    assert!(!text.contains("\n\n17\n\n") && !text.contains("December 2006"), "{text}");
}

/// Class "teaser with a hidden whole text": a review shows its first lines cut by an ellipsis
/// and a "more" toggle, and holds the whole text hidden beside it until the toggle opens it.
/// The whole text is the article's, once; a hidden box that does not go on from the teaser (a
/// sign-up form) stays out.
#[test]
fn a_hidden_whole_text_that_a_teaser_opens_is_kept() {
    let whole = prose("the hotel", 4);
    let shown = "Paragraph 1 about the hotel: the council met on a rainy evening, heard the residents, weighed the";
    let html = format!(
        r#"<html><body><h1>Les Suites, reviewed</h1><div class="review">
        <div class="short"><p>{shown}... <a href="javascript:open()">more</a></p></div>
        <div class="whole" style="display: none"><b>By A. Critic</b>{whole}</div>
        <div class="signup" style="display:none"><p>Sign up for our letter: rooms, rates and the best tables
        in town, every week in your inbox, free of charge and easy to leave.</p></div></div></body></html>"#
    );
    let text = article::extract(&page("https://travel.example/review/les-suites", &html), &Hints::default())
        .content_text
        .unwrap();
    assert!(text.contains("Paragraph 4 about the hotel"), "{text}");
    assert_eq!(text.matches("weighed the").count(), 4, "the teaser is left out: {text}");
    assert!(!text.contains("Sign up"), "{text}");
}

#[test]
fn a_short_post_s_longer_comments_are_no_article_text() {
    // A one-paragraph post followed by comments each longer than the post, in boxes whose
    // class joins the word into one (`commentbody`, as Movable Type and many old blog engines
    // write it): the comments are a comment section however long, the post is the text.
    let comment = |who: &str| {
        format!(
            r#"<div class="commentbody by-{who}"><div id="c-{who}">{}</div>
            <p class="posted">Posted by: {who} at November 13, 2012 6:31 AM</p></div>"#,
            prose(&format!("what {who} thought"), 2)
        )
    };
    let comments: String = ["matt", "ryan", "jan", "ken"].into_iter().map(comment).collect();
    let html = format!(
        r#"<html><head><title>Free online cryptography course</title></head><body>
        <div class="indivbody"><h1>My weblog</h1><h3>Free online cryptography course</h3>
        <p>A university is offering a free online cryptography course: six weeks, five to seven
        hours of coursework per week, with written homework and optional programming labs.</p>
        <p class="posted">Posted on November 13, 2012 at 6:15 AM</p></div>
        <div class="commentform"><h2>Comments</h2></div>{comments}</body></html>"#
    );
    let doc = page("https://blog.example/archives/2012/11/free_online_course.html", &html);
    let text = article::extract(&doc, &Hints::default()).content_text.unwrap();
    assert!(text.contains("five to seven hours of coursework"), "{text}");
    assert!(!text.contains("what matt thought") && !text.contains("what ryan thought"), "{text}");
}

#[test]
fn comments_opened_by_a_comments_heading_are_no_article_text() {
    // Classic blog themes (WordPress's Kubrick and the many themes made from it) write the
    // comments after the post as siblings of it, opened by a heading whose id names them:
    // `<h2 id="comments">`, then the comments (or "No comments yet."), then the form. The
    // heading opens a section that runs to the end of its parent.
    let html = format!(
        r#"<html><head><title>Broken arrows</title></head><body><div id="content">
        <div class="post"><h3 class="storytitle"><a href="/?p=1">Broken arrows</a></h3>
        <div class="storycontent">{}</div></div>
        <h2 id="comments">2 Comments</h2>
        <p>Lovely song, I have had it on repeat since the morning and my neighbours know it by heart now.</p>
        <p>Thanks for sharing this one, it reminds me of the summer we drove down the coast with the windows open.</p>
        <h2 id="respond">Leave a comment</h2>
        <form action="/wp-comments-post.php" method="post"><p><label>Name</label><input name="author"></p>
        <p><textarea name="comment"></textarea></p></form></div></body></html>"#,
        prose("the song", 2)
    );
    let doc = page("https://blog.example/?p=1", &html);
    let text = article::extract(&doc, &Hints::default()).content_text.unwrap();
    assert!(text.contains("Paragraph 2 about the song"), "{text}");
    assert!(!text.contains("on repeat") && !text.contains("windows open"), "{text}");
}

#[test]
fn a_list_of_the_author_s_dated_posts_after_the_text_is_no_article_text() {
    // Blog plugins end a post with the author's or the site's latest posts: a heading, then
    // items that are a link to another post and its date, nothing else; news sites' "Top
    // stories" rails give the time as an age ("1 hour ago"). An article's own lists hold
    // points and steps, not dated links.
    let dates = [
        |_| "- March 21st, 2017".to_string(),
        |i| format!(r#"<span><time datetime="2024-03-12T0{i}:00:00Z">{i} hours ago</time></span>"#),
    ];
    for date in dates {
        let latest: String = (1..=5)
            .map(|i| {
                format!(
                    r#"<li><a href="https://news.example/2017/03/21/story-{i}/">Another story number {i}</a> {}</li>"#,
                    date(i)
                )
            })
            .collect();
        let html = format!(
            r#"<html><head><title>Fighting in the suburbs</title></head><body><div class="entry">
            <h1>Fighting in the suburbs</h1>{}<ul><li>the first point the article makes, with some words</li>
            <li>the second point, with a few more words</li><li>the third point, which ends the list</li></ul>
            <h3>Last 5 posts by Jane Doe</h3><ul>{latest}</ul></div></body></html>"#,
            prose("the fighting", 3)
        );
        let doc = page("https://news.example/2017/03/21/fighting-in-the-suburbs/", &html);
        let text = article::extract(&doc, &Hints::default()).content_text.unwrap();
        assert!(text.contains("Paragraph 3 about the fighting") && text.contains("the third point"), "{text}");
        assert!(!text.contains("Another story number") && !text.contains("Last 5 posts"), "{text}");
    }
}

#[test]
fn a_sign_up_box_s_heading_and_pitch_go_with_its_form() {
    // A newsletter box inside the article's column: a heading and a line of pitch above a form
    // that asks for an e-mail address. The form is the site's, and so is what says what it is.
    let html = format!(
        r#"<html><head><title>Refugee deal honoured</title></head><body><div class="article">
        <h1>Refugee deal honoured</h1>{}
        <div class="box"><div class="inner"><h2>Email Newsletter Sign-up</h2>
        <p class="sub-label">Custom-curated news highlights, delivered weekday mornings.</p>
        <form action="/api/signup" method="post"><label>Email address</label>
        <input type="email" name="email"><input type="submit" value="Sign up"></form></div></div>
        </div></body></html>"#,
        prose("the refugee deal", 4)
    );
    let doc = page("https://news.example/nation-world/refugee-deal-honoured/", &html);
    let text = article::extract(&doc, &Hints::default()).content_text.unwrap();
    assert!(text.contains("Paragraph 4 about the refugee deal"), "{text}");
    assert!(!text.contains("Newsletter Sign-up") && !text.contains("weekday mornings"), "{text}");
}

#[test]
fn a_sign_up_box_whose_e_mail_field_is_a_plain_text_input_goes_with_its_form() {
    // Forms older than `type="email"` (and many mailing-list services' snippets today) ask for
    // the address in a text input named for it, beside hidden fields; the box's pitch floats
    // beside the form, in the article's column, with no class that names it.
    let html = format!(
        r#"<html><head><title>Giveaway week</title></head><body><div class="post">
        <h1>Giveaway week</h1>{}
        <div style="border: 1px solid #ccc; float: right"><div style="float: right">Don't miss a post!
        Subscribe and get weekly updates and free printables delivered straight to your inbox!</div>
        <form method="post" action="https://lists.example/addlead"><input type="hidden" name="listname" value="site">
        <input type="text" name="email" value="Enter your email address..."><input type="submit" value="GO"></form>
        </div></div></body></html>"#,
        prose("the giveaway", 4)
    );
    let doc = page("https://crafts.example/2012/11/giveaway-week/", &html);
    let text = article::extract(&doc, &Hints::default()).content_text.unwrap();
    assert!(text.contains("Paragraph 4 about the giveaway"), "{text}");
    assert!(!text.contains("miss a post") && !text.contains("free printables"), "{text}");
}

#[test]
fn a_body_split_by_ads_into_blocks_for_subscribers_is_kept_whole() {
    // News CMSes wrap each run of paragraphs between two ad slots in a block of its own, named
    // for who may read it (`subscriber-premium`): the article, not a subscription box.
    let segment =
        |n: usize| format!(r#"<div class="asset-content subscriber-premium">{}</div>"#, prose(&format!("part {n}"), 2));
    let ad = r#"<div class="ad-slot"><span>Advertisement</span></div>"#;
    let html = format!(
        r#"<html><body><article><h1>Bridge vote delayed</h1><p class="byline">By Ann Lee</p>
        {}{ad}{}{ad}{}</article><div class="subscribe-box"><p>Subscribe to our newsletter for the news of the town,
        every morning in your inbox.</p></div></body></html>"#,
        segment(1),
        segment(2),
        segment(3)
    );
    let text =
        article::extract(&page("https://town.example/news/bridge", &html), &Hints::default()).content_text.unwrap();
    for part in ["about part 1", "about part 2", "about part 3"] {
        assert!(text.contains(part), "{part} is lost: {text}");
    }
    assert!(!text.contains("Subscribe to our newsletter"), "{text}");
}

#[test]
fn a_lead_in_the_headline_s_block_beside_the_picture_is_kept() {
    // The story's header (headline, lead, byline) sits next to the main picture: the lead is
    // next to the picture only through its header, so it is no caption.
    let html = format!(
        r#"<html><body><main><article><div class="story-header"><h1>Bridge vote delayed</h1>
        <p class="story-lead">Residents of the east bank face another season of ferry queues after the council put off
        its vote on the new bridge until every document of the tender is public.</p><div class="byline">By Ann Lee</div></div>
        <figure><img src="/bridge.jpg"><figcaption>The old bridge in 1864.</figcaption></figure>
        <div class="story-body">{}</div></article></main></body></html>"#,
        prose("the bridge", 5)
    );
    let text =
        article::extract(&page("https://town.example/news/bridge", &html), &Hints::default()).content_text.unwrap();
    assert!(text.starts_with("Residents of the east bank"), "{text}");
    assert!(!text.contains("in 1864"), "{text}");
}

#[test]
fn the_text_that_introduces_a_gallery_is_the_article() {
    // A photo story: two paragraphs in a `gallery-intro` block, then the pictures. The block
    // is named for the gallery but holds no picture; the captions stay out.
    let figures: String = (0..6)
        .map(|i| format!(r#"<figure class="gallery-item"><img src="/g/{i}.jpg"><figcaption>Picture {i} of the vote at County Hall.</figcaption></figure>"#))
        .collect();
    let html = format!(
        r#"<html><body><main><article><h1>Old railway line to reopen</h1><div class="byline">By Jo Patel</div>
        <div class="gallery-intro"><p>The county council has approved a plan to reopen the old railway line between Ashby and
        Coalville to passengers for the first time since 1964.</p><p>The scheme, which will cost an estimated 48 million pounds,
        includes two new stations and a park-and-ride site.</p></div><div class="gallery">{figures}</div></article></main></body></html>"#
    );
    let text = article::extract(&page("https://town.example/news/railway-in-pictures", &html), &Hints::default())
        .content_text
        .unwrap_or_default();
    assert!(text.starts_with("The county council has approved") && text.contains("two new stations"), "{text}");
    assert!(!text.contains("Picture 3"), "{text}");
}

#[test]
fn a_standfirst_set_as_a_subheading_under_the_headline_is_kept() {
    // Many news sites write the standfirst as an `<h2>` in the article's header.
    let html = format!(
        r#"<html><head><title>Bridge vote delayed | Local Politics and Council | Town News</title></head><body><main><article>
        <header><h1>Bridge vote delayed</h1><h2 class="subtitle">Councillors put off the vote on the new bridge by three
        months, to publish every document of the tender first, after residents asked to see the costs.</h2></header>
        <div class="byline">By Ann Lee</div><div class="article-body">{}</div></article></main>
        <aside><h3>Newsletter Local Politics and Council</h3><p>The week in politics, every Friday.</p></aside></body></html>"#,
        prose("the bridge", 5)
    );
    // The URL names the section more than the story, as the page's title does: the headline is
    // still the `<h1>`, not the newsletter box named for the section.
    let doc = page("https://town.example/local-politics-and-council/2024/bridge-vote", &html);
    let text = article::extract(&doc, &Hints::default()).content_text.unwrap();
    assert!(text.starts_with("Councillors put off the vote"), "{text}");
    assert!(text.contains("Paragraph 5 about the bridge"), "{text}");
}

#[test]
fn blocks_named_by_data_component_are_read_like_classes() {
    // Component-built news pages name their blocks with `data-component` instead of classes:
    // the byline block and the related stories after the text are no part of it.
    let paragraphs: String = (1..=5)
        .map(|i| format!(r#"<div data-component="text-block"><p>Paragraph {i} about the bridge: the council met on a rainy evening, heard the residents and weighed the costs of the new bridge against the old ferry.</p></div>"#))
        .collect();
    let html = format!(
        r#"<html><body><main><article><div data-component="headline-block"><h1>Bridge vote delayed</h1></div>
        <div data-component="byline-block"><ul><li>Author, Ann Lee</li><li>Role, Town reporter</li></ul></div>
        {paragraphs}<section data-component="related-content"><h2>Related</h2><ul>
        <li><a href="/news/ferry">Ferry timetable changes again</a> <span>3 days ago</span></li>
        <li><a href="/news/mill">The old mill reopens as a museum</a> <span>5 days ago</span></li></ul></section></article></main></body></html>"#
    );
    let text =
        article::extract(&page("https://town.example/news/bridge", &html), &Hints::default()).content_text.unwrap();
    assert!(text.contains("Paragraph 1 about") && text.contains("Paragraph 5 about"), "{text}");
    let left: Vec<&str> =
        ["Ann Lee", "Town reporter", "Ferry timetable", "old mill"].into_iter().filter(|b| text.contains(b)).collect();
    assert!(left.is_empty(), "{left:?} in {text}");
}

#[test]
fn a_short_dek_right_under_the_headline_is_kept() {
    // Deks are often one sentence, shorter than a lead read anywhere else must be: right under
    // the headline (in the article's `<header>`, in a head block with breadcrumbs, or set as
    // an `<h2>`) one full sentence is the dek. An author box there is not.
    let dek = "Councillors put off the bridge vote to publish the tender first.";
    let heads = [
        format!(
            r#"<header><h1>Bridge vote delayed</h1><p class="dek">{dek}</p><div class="byline">By Ann Lee · May 3, 2024</div></header>"#
        ),
        format!(
            r#"<div class="head"><nav class="crumbs"><a href="/">Home</a> › <a href="/politics">Politics</a></nav>
            <h1>Bridge vote delayed</h1><div class="summary">{dek}</div><div class="byline">By Ann Lee</div></div>"#
        ),
        format!(
            r#"<h1>Bridge vote delayed</h1><h2 class="subtitle">{dek}</h2><p class="meta">By Ann Lee · May 3, 2024</p>"#
        ),
    ];
    for head in heads {
        let html = format!(
            r#"<html><body><header><a href="/">Town News</a></header><main><article>{head}
            <div class="article-body">{}</div></article></main><footer>© 2024 Town News</footer></body></html>"#,
            prose("the bridge", 4)
        );
        let text =
            article::extract(&page("https://town.example/news/bridge", &html), &Hints::default()).content_text.unwrap();
        assert!(text.starts_with(dek), "{head}: {text}");
        assert!(text.contains("Paragraph 4 about the bridge"), "{text}");
    }
    let html = format!(
        r#"<html><body><main><article><h1>Bridge vote delayed</h1><div class="meta-info"><h4 class="author">Ann Lee</h4>
        <div class="author-dropdown"><div class="description"><p>Ann Lee is a reporter at Town News, where she covers the
        council, planning and transport. Before that she wrote for the county paper.</p></div></div>
        <div class="post-time">posted 35 mins ago</div></div><div class="article-body">{}</div></article></main></body></html>"#,
        prose("the bridge", 4)
    );
    let text =
        article::extract(&page("https://town.example/news/bridge", &html), &Hints::default()).content_text.unwrap();
    assert!(!text.contains("Ann Lee is a reporter"), "an author box is no dek: {text}");
    // A dek set as a subheading needs no closing stop (El País, Corriere: "…, i residenti sono
    // esenti»"): a heading is no byline or label, and a sentence-long one right under the
    // headline is the dek.
    let dek = "Councillors put off the vote on the bridge by three months to publish the tender first";
    let html = format!(
        r#"<html><body><main><div class="col-main"><h1>Bridge vote delayed</h1><h2 class="summary-art">{dek}</h2>
        <div class="content">{}</div></div></main></body></html>"#,
        prose("the bridge", 4)
    );
    let text =
        article::extract(&page("https://town.example/news/bridge", &html), &Hints::default()).content_text.unwrap();
    assert!(text.starts_with(dek), "{text}");
}

/// Class "sections in wrappers of their own": handbooks, reports and documentation put each
/// section in a wrapper that opens with its heading, the text one wrapper further in
/// (`<li><h4>Earnings</h4><blockquote><p>…`, `<div class="section"><h2>…</h2><div
/// class="body"><p>…`). The article is every section, not its longest one; a teaser card's
/// heading and summary line beside them is no section.
#[test]
fn an_article_in_sections_with_wrappers_of_their_own_keeps_every_section() {
    let topics = ["nature of the work", "working conditions", "employment", "training", "job outlook"];
    for (list, item, body) in [("ul", "li", "blockquote"), ("div", "div class=\"section\"", "div class=\"body\"")] {
        let item_tag = item.split(' ').next().unwrap();
        let body_tag = body.split(' ').next().unwrap();
        let sections: String = topics
            .iter()
            .enumerate()
            .map(|(i, topic)| {
                format!(
                    "<{item}><h4>{topic}</h4><{body}>{}</{body_tag}></{item_tag}>",
                    prose(topic, if i == 0 { 6 } else { 2 })
                )
            })
            .collect();
        let html = format!(
            r##"<html><body><h2>Animal caretakers</h2><p><a href="#a">Nature of the work</a><br><a href="#b">Earnings</a></p>
            <{list}>{sections}</{list}><div class="more"><h4><a href="/other">Other occupations</a></h4><p>Zoo keepers.</p></div></body></html>"##
        );
        let text = article::extract(&page("https://handbook.example/ooh/caretakers.htm", &html), &Hints::default())
            .content_text
            .unwrap();
        for topic in topics {
            assert!(text.contains(&prose(topic, 1)[3..60]), "{list}/{item}: the section on {topic} is lost: {text}");
        }
        assert!(!text.contains("Zoo keepers"), "{list}/{item}: the teaser is no section: {text}");
    }
}

#[test]
fn links_to_the_previous_and_next_posts_after_a_short_text_are_no_article_text() {
    // A short post (three short paragraphs: Readability, finding less than its 500 characters,
    // retries without its cleaning) followed by the theme's previous/next links, each a short
    // label and a link to another post of the site. Titles in Chinese are short in characters,
    // so the links do not outweigh their labels as much as English ones do.
    let short = |topic: &str| {
        format!(
            "<p>We moved the {topic} to a new server this week.</p><p>The move took half an hour: a dump of \
             the database, an archive of the uploads, one line of configuration.</p><p>Tell us in the \
             comments if a picture or a link is broken.</p>"
        )
    };
    for (labels, titles) in [
        (["上一篇: ", "下一篇: "], ["阳台上的番茄", "自动备份"]),
        (["Previous post: ", "Next post: "], ["Tomatoes", "Backups"]),
        (["← ", "→ "], ["Tomatoes", "Backups"]),
    ] {
        let html = format!(
            r#"<html><head><title>Moved</title></head><body><div id="main" role="main">
            <article class="post"><h1 class="post-title">Moved</h1>
            <div class="post-content" itemprop="articleBody">{}</div></article>
            <ul class="post-near"><li>{}<a href="/archives/139/">{}</a></li>
            <li>{}<a href="/archives/145/">{}</a></li></ul>
            </div></body></html>"#,
            short("blog"),
            labels[0],
            titles[0],
            labels[1],
            titles[1]
        );
        let doc = page("https://blog.example.org/archives/142/", &html);
        let text = article::extract(&doc, &Hints::default()).content_text.unwrap();
        assert!(text.contains("a new server") && text.contains("broken"), "{text}");
        assert!(!text.contains(titles[0]) && !text.contains(titles[1]), "{text}");
    }
    // A mail archive's message set right in the `<body>`, between two such lists.
    let around = r#"<ul><li>Previous message: <a href="033111.html">[users] Loading data</a></li>
        <li>Next message: <a href="033113.html">[users] Slow queries</a></li></ul>"#;
    let html = format!(
        "<html><body><h1>[users] Slow queries</h1><b>Martin</b><p>{around}<hr><pre>{}</pre><hr><p>{around}</body></html>",
        "Hi all,\n\nafter upgrading one of our servers a query that used to take about 40 ms now takes between six \
         and nine seconds, and the index is not used at all, even with sequential scans turned off.\n\nThanks,\nMartin"
    );
    let text = article::extract(&page("https://lists.example.org/archive/033112.html", &html), &Hints::default())
        .content_text
        .unwrap();
    assert!(text.contains("index is not used") && !text.contains("Loading data"), "{text}");
}

#[test]
fn a_heading_that_links_to_itself_is_a_section_of_the_text() {
    // Documentation and wiki generators make each section heading a link to its own anchor
    // (MDN, Docusaurus, GitHub's READMEs), by fragment or by the page's full address. Such a
    // heading points nowhere else; a heading that links another page is a teaser.
    for href in ["#usage", "https://docs.example/guide/bridges#usage", "/guide/bridges#usage"] {
        let html = format!(
            r#"<html><head><title>Bridges - Guide</title></head><body><main><article><h1>Bridges</h1>{}
            <h2 id="usage"><a href="{href}">Usage notes</a></h2>{}
            <h2><a href="/guide/ferries">Ferries and their timetables</a></h2></article></main></body></html>"#,
            prose("the bridge", 3),
            prose("the usage", 2)
        );
        let text = article::extract(&page("https://docs.example/guide/bridges", &html), &Hints::default())
            .content_text
            .unwrap();
        assert!(text.contains("Usage notes") && text.contains("Paragraph 2 about the usage"), "{href}: {text}");
        assert!(!text.contains("Ferries"), "{text}");
    }
}

#[test]
fn a_kicker_set_against_the_headline_without_a_space_still_names_the_headline() {
    // Spiegel writes the kicker and the headline as two spans with no space between them (the
    // style sheet puts them on lines of their own): the heading is still the page's headline,
    // and the dek under it is the article's.
    let dek = "The count of wolves grows again, but more slowly than in the years before in most regions.";
    let html = format!(
        r#"<html><head><title>Wolves: Agency counts 184 packs, growth slows - THE MIRROR</title></head><body><article>
        <header><div><h2><span>Wolves</span><span>Agency counts 184 packs, growth slows</span></h2>
        <div class="RichText">{dek}</div></div></header><section><div class="RichText">{}</div></section>
        </article></body></html>"#,
        prose("the wolves", 3)
    );
    let text = article::extract(&page("https://mirror.example/science/wolves-a-1234.html", &html), &Hints::default())
        .content_text
        .unwrap();
    assert!(text.starts_with(dek), "{text}");
}

/// Class "code that reads like page furniture": a post's code block holds lines that, outside
/// code, would be a byline ("Create File By Author: Hong" when Hong wrote the post), a
/// dateline ("Date: 21:12") or a metadata line. Code is the text verbatim: none of its lines
/// is dropped, whatever it reads like.
#[test]
fn a_code_block_keeps_its_lines_that_read_like_a_byline_or_a_date() {
    let code = [
        "# -*- coding: utf-8 -*-",
        "\"\"\"",
        "File Name: image_shapes.py",
        "Date: 21:12",
        "Create File By Author: Hong",
        "Version: 1.0 · 2021-03-04 · draft",
        "\"\"\"",
        "import cv2 as cv",
    ];
    let block: String =
        code.iter().map(|line| format!(r#"<span class="line">{}</span><br>"#, line.replace('"', "&quot;"))).collect();
    let html = format!(
        r#"<html><head><title>Image shapes | Notes</title><meta name="author" content="Hong"></head><body>
        <article><h1>Image shapes</h1><p class="byline">By Hong</p><div class="post-body">{}
        <figure class="highlight"><pre><code>{block}</code></pre></figure>{}</div></article></body></html>"#,
        prose("image shapes", 3),
        prose("pixels", 2)
    );
    let doc = page("https://notes.example/posts/image-shapes/", &html);
    let text = article::extract(&doc, &Hints::default()).content_text.unwrap();
    for line in code {
        assert!(text.contains(line), "{line:?} missing from {text}");
    }
    assert!(!text.contains("By Hong"), "the post's own byline is no text: {text}");
}
